import { Injectable } from '@nestjs/common';
import { AppConfig, AuditContext, DomainError, InvalidInputError, NotFoundError, OutboundClient, OutboundError, SecretKeys } from '@svc/platform';
import { integrationType } from '../catalog/integration-types';
import { CreatedIntegrationView } from '../dto/integration.view';
import { IntegrationsService } from '../integrations.service';
import { decodeConnectState, encodeConnectState } from './connect-state';

/** What the app asks of a workspace: hear its mentions and thread replies, and answer in threads. */
export const CHAT_SCOPES = ['app_mentions:read', 'channels:history', 'groups:history', 'chat:write'];
const EXCHANGE_TIMEOUT_MS = 10_000;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The answer of the provider's `oauth.v2.access` that an install needs. */
interface TokenAnswer {
  ok?: unknown;
  error?: unknown;
  access_token?: unknown;
  token_type?: unknown;
  app_id?: unknown;
  team?: { id?: unknown; name?: unknown } | null;
}

/**
 * OAuth v2 installs of the chat app into a workspace: the authorization URL with a signed state
 * bound to the Admin's session and Organization, and, on the provider's return, the code exchanged
 * at `{SVC_CHAT_API_BASE_URL}/oauth.v2.access` for the bot token, which is sealed into a new
 * chat integration like any credential. Types that do not connect by OAuth are 400.
 */
@Injectable()
export class ChatConnectService {
  private readonly stateKey: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly integrations: IntegrationsService,
    private readonly outbound: OutboundClient,
    keys: SecretKeys,
  ) {
    this.stateKey = keys.derive('connect-state');
  }

  private get redirectUri(): string {
    return `${this.config.SVC_PUBLIC_URL.replace(/\/$/, '')}/api/v1/integrations/connect/callback`;
  }

  /** The provider's authorization URL for this Admin's session in this Organization. */
  start(typeId: string, organizationId: string, sessionId: string): { authorizationUrl: string } {
    const type = integrationType(typeId);
    if (!type) throw new NotFoundError('Integration type');
    if (type.connect !== 'oauth')
      throw new InvalidInputError(`${type.displayName} integrations do not connect by OAuth: create one with POST /api/v1/integrations and its config`);
    if (!this.config.chatOAuthConfigured)
      throw new InvalidInputError(
        `${type.displayName} OAuth is not configured on this deployment (SVC_CHAT_CLIENT_ID, SVC_CHAT_CLIENT_SECRET, SVC_CHAT_SIGNING_SECRET, SVC_CHAT_AUTHORIZE_URL, SVC_CHAT_API_BASE_URL): create the integration with POST /api/v1/integrations and its config and credentials`,
      );
    const url = new URL(this.config.SVC_CHAT_AUTHORIZE_URL!);
    url.searchParams.set('client_id', this.config.SVC_CHAT_CLIENT_ID!);
    url.searchParams.set('scope', CHAT_SCOPES.join(','));
    url.searchParams.set('redirect_uri', this.redirectUri);
    url.searchParams.set('state', encodeConnectState(this.stateKey, { organizationId, sessionId, type: type.id }));
    return { authorizationUrl: url.toString() };
  }

  /**
   * The provider sent the browser back: the state must be this deployment's, unexpired, and
   * started by this session in this Organization; then the code is exchanged and the
   * integration created (audited as its creation by the Admin).
   */
  async complete(
    query: { code?: string; state?: string; error?: string },
    organizationId: string,
    sessionId: string,
    context: AuditContext,
  ): Promise<CreatedIntegrationView> {
    const state = decodeConnectState(this.stateKey, query.state);
    if (!state || state.organizationId !== organizationId || state.sessionId !== sessionId)
      throw new InvalidInputError(
        'The connection has no valid state: it expired, was altered, or was started by another session or Organization. Start it again',
      );
    if (query.error !== undefined) throw new InvalidInputError(`The chat provider did not authorize the install (${query.error.slice(0, 64)}): start it again`);
    if (!query.code) throw new InvalidInputError('Invalid input: code is required');
    if (!this.config.chatOAuthConfigured) throw new InvalidInputError('Chat OAuth is not configured on this deployment');
    const answer = await this.exchange(query.code);
    if (answer.ok !== true) {
      const error = typeof answer.error === 'string' && /^[a-z_]{1,64}$/.test(answer.error) ? answer.error : 'unknown error';
      throw new InvalidInputError(`The chat provider refused the code (${error}): start the connection again`);
    }
    const teamId = answer.team?.id;
    if (
      typeof answer.access_token !== 'string' ||
      !answer.access_token ||
      typeof answer.app_id !== 'string' ||
      !ID.test(answer.app_id) ||
      typeof teamId !== 'string' ||
      !ID.test(teamId)
    )
      throw new DomainError('unavailable', 'The chat provider answered without a bot token, app or workspace id; retry the connection', {
        retryAfterSeconds: 1,
      });
    const teamName = typeof answer.team?.name === 'string' && answer.team.name.trim() ? answer.team.name.trim().slice(0, 240) : teamId;
    return this.integrations.create(
      organizationId,
      {
        type: 'chat',
        name: `Chat: ${teamName}`,
        config: { apiBaseUrl: this.config.SVC_CHAT_API_BASE_URL!, teamId, appId: answer.app_id },
        credentials: { signingSecret: this.config.SVC_CHAT_SIGNING_SECRET!, botToken: answer.access_token },
      },
      context,
    );
  }

  /** `oauth.v2.access`: form-encoded client id, secret, code and redirect URI; its JSON answer. */
  private async exchange(code: string): Promise<TokenAnswer> {
    const url = `${this.config.SVC_CHAT_API_BASE_URL!.replace(/\/$/, '')}/oauth.v2.access`;
    const body = new URLSearchParams({
      client_id: this.config.SVC_CHAT_CLIENT_ID!,
      client_secret: this.config.SVC_CHAT_CLIENT_SECRET!,
      code,
      redirect_uri: this.redirectUri,
    }).toString();
    let answer;
    try {
      answer = await this.outbound.post({
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
        maxBytes: 64 * 1024,
      });
    } catch (error) {
      const why = error instanceof OutboundError ? error.message : 'no answer in time';
      throw new DomainError('unavailable', `The chat provider's token endpoint could not be reached (${why}); retry the connection`, { retryAfterSeconds: 5 });
    }
    if (answer.status >= 500 || answer.status === 429)
      throw new DomainError('unavailable', `The chat provider's token endpoint answered HTTP ${answer.status}; retry the connection`, { retryAfterSeconds: 5 });
    try {
      return JSON.parse(answer.body.toString('utf8')) as TokenAnswer;
    } catch {
      throw new DomainError('unavailable', `The chat provider's token endpoint answered HTTP ${answer.status} without JSON; retry the connection`, {
        retryAfterSeconds: 5,
      });
    }
  }
}
