import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateNested } from 'class-validator';
import { IsOptionalNonNull, IsRfc3339 } from '@svc/platform';
import { ENTRY_MAX, LIST_MAX, LONG_TEXT_MAX, TITLE_MAX } from '../postmortem.types';

const RUN_REFS_MAX = 1000;

/** The run citations of an entry a person writes: optional, and checked against the investigation's runs. */
class CitingEntryDto {
  @ApiPropertyOptional({ type: [Number], description: 'Ordinals of tool runs of investigationId' })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(RUN_REFS_MAX)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  runRefs?: number[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'An investigation of this incident; required when runRefs is not empty' })
  @IsOptional()
  @IsUUID('all')
  investigationId?: string | null;
}

export class TimelineEntryDto extends CitingEntryDto {
  @ApiProperty({ type: String, format: 'date-time' })
  @IsRfc3339()
  at!: string;

  @ApiProperty({ minLength: 1, maxLength: ENTRY_MAX })
  @IsString()
  @Length(1, ENTRY_MAX)
  description!: string;
}

export class CitedStatementDto extends CitingEntryDto {
  @ApiProperty({ minLength: 1, maxLength: ENTRY_MAX })
  @IsString()
  @Length(1, ENTRY_MAX)
  statement!: string;
}

export class ActionItemDto extends CitingEntryDto {
  @ApiProperty({ minLength: 1, maxLength: ENTRY_MAX })
  @IsString()
  @Length(1, ENTRY_MAX)
  title!: string;

  @ApiProperty({ minLength: 1, maxLength: ENTRY_MAX })
  @IsString()
  @Length(1, ENTRY_MAX)
  owner!: string;

  @ApiProperty({ minLength: 1, maxLength: ENTRY_MAX, description: 'A date, or any text a person gives' })
  @IsString()
  @Length(1, ENTRY_MAX)
  deadline!: string;

  @ApiProperty({ minLength: 1, maxLength: ENTRY_MAX })
  @IsString()
  @Length(1, ENTRY_MAX)
  verification!: string;
}

const longText = (description: string) => ApiPropertyOptional({ minLength: 1, maxLength: LONG_TEXT_MAX, description });
const stringList = (description: string) =>
  ApiPropertyOptional({ type: [String], maxItems: LIST_MAX, description: `${description}; entries up to ${ENTRY_MAX} characters` });

/** Optional human notes for the first draft: each becomes a field a person set. */
export class CreatePostmortemDto {
  @longText('What the incident did to users and the business')
  @IsOptionalNonNull()
  @IsString()
  @Length(1, LONG_TEXT_MAX)
  impact?: string;

  @longText('How it was resolved')
  @IsOptionalNonNull()
  @IsString()
  @Length(1, LONG_TEXT_MAX)
  resolution?: string;

  @stringList('What went well')
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsString({ each: true })
  @Length(1, ENTRY_MAX, { each: true })
  whatWentWell?: string[];

  @stringList('What went wrong')
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsString({ each: true })
  @Length(1, ENTRY_MAX, { each: true })
  whatWentWrong?: string[];

  @stringList('Gaps in detection')
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsString({ each: true })
  @Length(1, ENTRY_MAX, { each: true })
  detectionGaps?: string[];
}

/** Explicit human corrections: any subset of the document's text and list fields, each then kept across regenerations. */
export class CorrectPostmortemDto extends CreatePostmortemDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TITLE_MAX })
  @IsOptionalNonNull()
  @IsString()
  @Length(1, TITLE_MAX)
  title?: string;

  @longText('The executive summary')
  @IsOptionalNonNull()
  @IsString()
  @Length(1, LONG_TEXT_MAX)
  executiveSummary?: string;

  @longText('How the incident was detected')
  @IsOptionalNonNull()
  @IsString()
  @Length(1, LONG_TEXT_MAX)
  detection?: string;

  @stringList('Open questions')
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsString({ each: true })
  @Length(1, ENTRY_MAX, { each: true })
  openQuestions?: string[];

  @ApiPropertyOptional({ type: [TimelineEntryDto], maxItems: LIST_MAX })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TimelineEntryDto)
  timeline?: TimelineEntryDto[];

  @ApiPropertyOptional({ type: [CitedStatementDto], maxItems: LIST_MAX })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CitedStatementDto)
  rootCauses?: CitedStatementDto[];

  @ApiPropertyOptional({ type: [CitedStatementDto], maxItems: LIST_MAX })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CitedStatementDto)
  contributingFactors?: CitedStatementDto[];

  @ApiPropertyOptional({ type: [ActionItemDto], maxItems: LIST_MAX })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ActionItemDto)
  actionItems?: ActionItemDto[];
}
