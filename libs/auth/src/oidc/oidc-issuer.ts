import { Injectable, Logger } from '@nestjs/common';
import { isEmail } from 'class-validator';
import * as oidc from 'openid-client';
import { AppConfig, DomainError, UnauthenticatedError } from '@svc/platform';
import type { OidcFlowState } from './oidc-state';

export const OIDC_CALLBACK_PATH = '/api/v1/auth/oidc/callback';
const SCOPE = 'openid email profile';
/** Discovered metadata is kept this long, then discovered again (a provider may move endpoints). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Each request to the provider gives up after this long. */
const REQUEST_TIMEOUT_SECONDS = 10;
const RETRY_AFTER_SECONDS = 30;

/** Who the provider says signed in, after every check of the ID token passed. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  /** Lower-cased and trimmed; null when the provider gave none, or not a usable address. */
  email: string | null;
  /** Only a literal `email_verified: true` for that same address counts. */
  emailVerified: boolean;
  name: string | null;
}

function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(url.hostname);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function usableEmail(value: unknown): string | null {
  const email = text(value)?.toLowerCase() ?? null;
  return email && email.length <= 320 && isEmail(email, { allow_display_name: false, require_tld: false }) ? email : null;
}

/**
 * client_secret_basic (the OpenID default) unless the provider lists only client_secret_post;
 * no client authentication (PKCE alone) when no secret is configured.
 */
function clientAuthentication(server: oidc.ServerMetadata, secret: string | undefined): oidc.ClientAuth {
  if (!secret) return oidc.None();
  const supported = server.token_endpoint_auth_methods_supported;
  if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')) return oidc.ClientSecretPost(secret);
  return oidc.ClientSecretBasic(secret);
}

function displayName(claims: Record<string, unknown>): string | null {
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  const name = text(claims.name) ?? (given || null) ?? text(claims.preferred_username);
  return name ? name.slice(0, 256) : null;
}

/**
 * The OpenID Provider named by the deployment settings, through openid-client: discovery (cached),
 * the authorization URL with state, nonce and PKCE S256, the code exchange and the ID token checks
 * (signature against the provider's JWKS, exact issuer, audience, nonce, expiry).
 */
@Injectable()
export class OidcIssuer {
  private readonly logger = new Logger('OidcSignIn');
  private cached?: { key: string; expiresAt: number; configuration: Promise<oidc.Configuration> };

  constructor(private readonly config: AppConfig) {}

  get redirectUri(): string {
    return `${this.config.publicOrigin}${OIDC_CALLBACK_PATH}`;
  }

  newFlow(returnTo: string, expiresAt: number): OidcFlowState {
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), returnTo, expiresAt };
  }

  async authorizationUrl(flow: OidcFlowState): Promise<URL> {
    const configuration = await this.configuration();
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: SCOPE,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Checks the authorization response, redeems the code with the PKCE verifier and the client's
   * credentials, and validates the ID token. Any failure after discovery is 401 `credential_rejected`.
   * `callbackQuery` is the raw query string the provider sent the browser back with.
   */
  async redeem(callbackQuery: string, flow: OidcFlowState): Promise<VerifiedIdentity> {
    const configuration = await this.configuration();
    const current = new URL(this.redirectUri);
    current.search = callbackQuery;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      const issuer = configuration.serverMetadata().issuer;
      let source: Record<string, unknown> = claims;
      // Email and its verification are taken as a pair from one source: the ID token when it has
      // both, else the UserInfo response (whose `sub` must be the ID token's).
      if ((claims.email === undefined || claims.email_verified === undefined) && configuration.serverMetadata().userinfo_endpoint) {
        const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
        if (userInfo.email !== undefined) source = userInfo;
      }
      const email = usableEmail(source.email);
      return {
        issuer,
        subject: claims.sub,
        email,
        emailVerified: email !== null && source.email_verified === true,
        name: displayName(source) ?? displayName(claims),
      };
    } catch (error) {
      throw this.rejected(error);
    }
  }

  private rejected(error: unknown): UnauthenticatedError {
    if (error instanceof oidc.AuthorizationResponseError) {
      const code = /^[A-Za-z0-9_.-]{1,64}$/.test(error.error) ? ` (${error.error})` : '';
      this.logger.warn({ error: error.error }, 'The OpenID Provider answered the authorization request with an error');
      return new UnauthenticatedError('credential_rejected', `The identity provider did not sign you in${code}`);
    }
    // Names and messages only: the causes also hold the provider's response, tokens included.
    const err = error as { name?: string; code?: string; message?: string; cause?: { message?: string; error?: string } };
    this.logger.warn(
      { error: err?.name, code: err?.code, message: err?.message, cause: err?.cause?.message ?? err?.cause?.error },
      'OIDC sign-in rejected: the authorization response, token response or ID token failed validation',
    );
    return new UnauthenticatedError('credential_rejected', "The identity provider's answer could not be verified");
  }

  /** Discovery, cached per (issuer, client) for an hour; a failed discovery is not cached. */
  private configuration(): Promise<oidc.Configuration> {
    const issuer = this.config.SVC_OIDC_ISSUER!;
    const clientId = this.config.SVC_OIDC_CLIENT_ID!;
    const secret = this.config.SVC_OIDC_CLIENT_SECRET;
    const key = JSON.stringify([issuer, clientId, secret ?? null]);
    const now = Date.now();
    if (this.cached && this.cached.key === key && this.cached.expiresAt > now) return this.cached.configuration;
    const configuration = this.discover(new URL(issuer), clientId, secret);
    const entry = { key, expiresAt: now + DISCOVERY_TTL_MS, configuration };
    this.cached = entry;
    configuration.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return configuration;
  }

  private async discover(issuer: URL, clientId: string, secret: string | undefined): Promise<oidc.Configuration> {
    // Plain HTTP is accepted for a provider on this machine only (development, tests).
    const insecure = issuer.protocol === 'http:';
    if (insecure && !isLoopback(issuer)) {
      this.logger.error({ issuer: issuer.href }, 'SVC_OIDC_ISSUER must use https (plain http is accepted only for a loopback address)');
      throw new DomainError('unavailable', 'OIDC sign-in is unavailable: the identity provider is misconfigured', { retryAfterSeconds: RETRY_AFTER_SECONDS });
    }
    try {
      const discovered = await oidc.discovery(issuer, clientId, undefined, oidc.None(), {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: REQUEST_TIMEOUT_SECONDS,
      });
      const server = discovered.serverMetadata();
      const configuration = new oidc.Configuration(server, clientId, secret ? { client_secret: secret } : undefined, clientAuthentication(server, secret));
      if (insecure) oidc.allowInsecureRequests(configuration);
      configuration.timeout = REQUEST_TIMEOUT_SECONDS;
      // The ID token's signature is checked against the provider's keys too, not only trusted
      // because it came over the token endpoint's TLS connection.
      oidc.enableNonRepudiationChecks(configuration);
      return configuration;
    } catch (error) {
      const err = error as { name?: string; code?: string; message?: string };
      this.logger.error({ issuer: issuer.href, error: err?.name, code: err?.code, message: err?.message }, 'OIDC discovery failed');
      throw new DomainError('unavailable', 'The identity provider cannot be reached; try again shortly', { retryAfterSeconds: RETRY_AFTER_SECONDS });
    }
  }
}
