import { applyDecorators } from '@nestjs/common';
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

/** An optional long text field: 1 to LONG_TEXT_MAX characters, never null. */
const longText = (description: string) =>
  applyDecorators(ApiPropertyOptional({ minLength: 1, maxLength: LONG_TEXT_MAX, description }), IsOptionalNonNull(), IsString(), Length(1, LONG_TEXT_MAX));

/** An optional list of up to LIST_MAX texts of 1 to ENTRY_MAX characters, never null. */
const stringList = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: LIST_MAX, description: `${description}; entries up to ${ENTRY_MAX} characters` }),
    IsOptionalNonNull(),
    IsArray(),
    ArrayMaxSize(LIST_MAX),
    IsString({ each: true }),
    Length(1, ENTRY_MAX, { each: true }),
  );

/** An optional list of up to LIST_MAX entries of `entry`, each validated as one, never null. */
const entryList = (entry: new () => object) =>
  applyDecorators(
    ApiPropertyOptional({ type: [entry], maxItems: LIST_MAX }),
    IsOptionalNonNull(),
    IsArray(),
    ArrayMaxSize(LIST_MAX),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    Type(() => entry),
  );

/** Optional human notes for the first draft: each becomes a field a person set. */
export class CreatePostmortemDto {
  @longText('What the incident did to users and the business')
  impact?: string;

  @longText('How it was resolved')
  resolution?: string;

  @stringList('What went well')
  whatWentWell?: string[];

  @stringList('What went wrong')
  whatWentWrong?: string[];

  @stringList('Gaps in detection')
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
  executiveSummary?: string;

  @longText('How the incident was detected')
  detection?: string;

  @stringList('Open questions')
  openQuestions?: string[];

  @entryList(TimelineEntryDto)
  timeline?: TimelineEntryDto[];

  @entryList(CitedStatementDto)
  rootCauses?: CitedStatementDto[];

  @entryList(CitedStatementDto)
  contributingFactors?: CitedStatementDto[];

  @entryList(ActionItemDto)
  actionItems?: ActionItemDto[];
}
