import { Body, Controller, Headers, HttpCode, Post, Put, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors, CurrentPrincipal, CurrentRequestOrigin, Principal, Public, RequestOrigin, SignedIn, UnauthenticatedError } from '@svc/platform';
import { BootstrapCredential } from './bootstrap-credential';
import { BootstrapDto } from './dto/bootstrap.dto';
import { ChangePasswordDto } from './dto/member.dto';
import { SignedInView } from './dto/auth.view';
import { SignInDto } from './dto/sign-in.dto';
import { LocalAuthService } from './local-auth.service';
import { setSessionCookie } from './session-cookie.writer';

@ApiTags('authentication')
@Controller('api/v1/auth/local')
export class LocalAuthController {
  constructor(
    private readonly auth: LocalAuthService,
    private readonly bootstrapCredential: BootstrapCredential,
  ) {}

  /** First Organization and Admin of a new deployment, authorized by the bootstrap credential. */
  @Public()
  @Post('bootstrap')
  @HttpCode(201)
  @ApiBearerAuth('bearer')
  @ApiCreatedResponse({ type: SignedInView, description: 'Created; the session cookie is set' })
  @ApiErrors({ status: 401, description: 'Wrong or missing bootstrap credential' })
  @ApiErrors({ status: 409, description: 'Already bootstrapped' }, { status: 403, description: 'A present Origin that is not this service' })
  async bootstrap(
    @Body() body: BootstrapDto,
    @Headers('authorization') authorization: string | undefined,
    @CurrentRequestOrigin() origin: RequestOrigin,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignedInView> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match || !(await this.bootstrapCredential.matches(match[1]))) {
      throw new UnauthenticatedError('credential_rejected', 'Bootstrap requires the deployment bootstrap credential');
    }
    const { view, issued } = await this.auth.bootstrap(body, origin);
    setSessionCookie(res, issued.token, issued.session.expiresAt);
    return view;
  }

  @Public()
  @Post('sign-in')
  @HttpCode(200)
  @ApiOkResponse({ type: SignedInView, description: 'Signed in; the session cookie is set' })
  @ApiErrors(
    { status: 401, description: 'Email or password is incorrect (reason credential_rejected)' },
    { status: 403, description: 'A present Origin that is not this service' },
    { status: 429, description: 'Too many failed sign-ins for this account or address; see Retry-After' },
  )
  async signIn(@Body() body: SignInDto, @CurrentRequestOrigin() origin: RequestOrigin, @Res({ passthrough: true }) res: Response): Promise<SignedInView> {
    const { view, issued } = await this.auth.signIn(body, origin);
    setSessionCookie(res, issued.token, issued.session.expiresAt);
    return view;
  }

  /** Changes the caller's own password; their other sessions end, this one stays. */
  @SignedIn()
  @Put('password')
  @HttpCode(204)
  @ApiNoContentResponse()
  async changePassword(
    @Body() body: ChangePasswordDto,
    @CurrentPrincipal() principal: Principal,
    @CurrentRequestOrigin() origin: RequestOrigin,
  ): Promise<void> {
    await this.auth.changePassword(principal, body, origin);
  }
}
