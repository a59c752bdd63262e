import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { parse } from 'cookie';
import type { Request, Response } from 'express';
import { ApiErrors, AppConfig, DomainError, InvalidInputError, Public, requestOrigin, SecretKeys } from '@svc/platform';
import { setSessionCookie } from '../session-cookie.writer';
import { OidcIssuer } from './oidc-issuer';
import { OidcSignInService } from './oidc-sign-in.service';
import {
  clearFlowStateCookie,
  decodeFlowState,
  encodeFlowState,
  OIDC_STATE_COOKIE,
  OIDC_STATE_TTL_SECONDS,
  parseStartQuery,
  RETURN_TO_MAX_LENGTH,
  sameSecret,
  setFlowStateCookie,
} from './oidc-state';

function redirect(res: Response, location: string): void {
  res.status(302).location(location).end();
}

/**
 * Generic OpenID Connect sign-in: authorization code with PKCE S256, state and nonce. Both routes
 * are GET navigations of the browser, so the Origin rule does not apply.
 */
@ApiTags('authentication')
@Controller('api/v1/auth/oidc')
export class OidcController {
  private readonly stateKey: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly issuer: OidcIssuer,
    private readonly signIns: OidcSignInService,
    keys: SecretKeys,
  ) {
    this.stateKey = keys.derive('oidc-state');
  }

  /** Starts a sign-in at the configured OpenID Provider: 302 to its authorization endpoint. */
  @Public()
  @Get('start')
  @ApiQuery({
    name: 'returnTo',
    required: false,
    type: String,
    maxLength: RETURN_TO_MAX_LENGTH,
    description: 'Relative path on this site to return to after sign-in (default /)',
    example: '/incidents',
  })
  @ApiFoundResponse({ description: 'Redirect to the provider; the signed `__Host-svc_oidc` cookie is set for 10 minutes' })
  @ApiErrors({ status: 400, description: 'returnTo is not a same-origin relative path' })
  @ApiErrors({ status: 404, description: 'OIDC sign-in is not configured' }, { status: 503, description: 'The identity provider cannot be reached' })
  async start(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    this.requireConfigured();
    const returnTo = parseStartQuery(query);
    const flow = this.issuer.newFlow(returnTo, Math.floor(Date.now() / 1000) + OIDC_STATE_TTL_SECONDS);
    const url = await this.issuer.authorizationUrl(flow);
    setFlowStateCookie(res, encodeFlowState(this.stateKey, flow));
    redirect(res, url.href);
  }

  /** Where the provider sends the browser back: the session cookie is set and 302 to returnTo. */
  @Public()
  @Get('callback')
  @ApiQuery({ name: 'code', required: false, type: String, description: 'Set by the provider' })
  @ApiQuery({ name: 'state', required: false, type: String, description: 'Set by the provider; must match the sign-in cookie' })
  @ApiFoundResponse({ description: 'Signed in: the session cookie is set; redirect to returnTo' })
  @ApiErrors({ status: 400, description: 'No, a tampered or an expired sign-in cookie, or a state that does not match it' })
  @ApiErrors({ status: 401, description: "The provider's answer or ID token was not accepted (reason credential_rejected)" })
  @ApiErrors({ status: 403, description: 'No account for this identity, or the account is disabled' })
  @ApiErrors({ status: 404, description: 'OIDC sign-in is not configured' }, { status: 503, description: 'The identity provider cannot be reached' })
  async callback(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.requireConfigured();
    const header = req.headers.cookie;
    const flow = decodeFlowState(this.stateKey, header ? parse(header)[OIDC_STATE_COOKIE] : undefined);
    // One attempt per started sign-in: the cookie goes whatever the outcome.
    clearFlowStateCookie(res);
    if (!flow) throw new InvalidInputError('The sign-in has no valid state: it expired, was altered or was not started here. Start the sign-in again');
    if (typeof query.state !== 'string' || !sameSecret(query.state, flow.state)) {
      throw new InvalidInputError('The sign-in state does not match: start the sign-in again');
    }
    const search = new URL(req.originalUrl, 'http://callback.invalid').search;
    const identity = await this.issuer.redeem(search, flow);
    const issued = await this.signIns.signIn(identity, requestOrigin(req));
    setSessionCookie(res, issued.token, issued.session.expiresAt);
    redirect(res, flow.returnTo);
  }

  private requireConfigured(): void {
    if (!this.config.oidcConfigured) throw new DomainError('not_found', 'OIDC sign-in is not configured');
  }
}
