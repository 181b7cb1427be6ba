/**
 * `social-sdk-auth/api`: the platform's HTTP interface for game backends, over undici, with rate
 * limits kept in a store that a whole fleet of processes can share.
 *
 * ```ts
 * import { PlatformApi, RedisRateLimitStore, deployCommands } from 'social-sdk-auth/api';
 * const api = new PlatformApi({ botToken, store: new RedisRateLimitStore({ url: process.env.REDIS_URL! }) });
 * await deployCommands([{ name: 'ping', description: 'Checks the bot answers' }], { api, applicationId });
 * ```
 *
 * undici and redis are optional peer dependencies, loaded on first use.
 */
export { PlatformApi } from './platform-api.js';
export type { GetLobbyMessagesQuery } from './lobbies.js';
export type { ChannelMessage, CreateMessageBody, EditMessageBody, MessageAttachment } from './messages.js';
export type { MessageBody, MessageTopLevelComponent } from '../components/types.js';
export { CommandValidationError, type CommandUpsert, type EditCommandOptions, type GetCommandsQuery } from './commands.js';
export { deployCommands, type DeployCommandsOptions, type DeployedCommand, type DeployReport } from './deploy.js';
export type {
  ApplicationCommand,
  ApplicationCommandBulkItem,
  ApplicationCommandCreateBody,
  ApplicationCommandEditBody,
  ApplicationCommandPermission,
  ApplicationCommandPermissionsEditBody,
  GuildApplicationCommandPermissions,
} from '../commands/types.js';
export type { CommandError, CommandErrorCode } from '../rules/commands.js';
export type { Locale } from '../rules/locales.js';
export type {
  AddLobbyMemberBody,
  BulkLobbyMemberInput,
  CreateLobbyBody,
  CreateOrJoinLobbyBody,
  EditLobbyBody,
  LinkedChannel,
  Lobby,
  LobbyChannelInvite,
  LobbyMember,
  LobbyMemberInput,
  LobbyMessage,
  Metadata,
  SendLobbyMessageBody,
  Snowflake,
} from '../rules/index.js';
export { LOBBY_LIMITS, LobbyMemberFlags, JsonErrorCode } from '../rules/index.js';
export { DEFAULT_API_BASE, type ApiFile, type ApiRequest, type PlatformApiOptions, type RequestOptions } from './core.js';
export { ApiError, ApiRequestError, type ApiErrorContext, type ApiFieldError, type ApiRequestErrorCode } from './errors.js';
export { MemoryRateLimitStore } from './memory-store.js';
export { RedisRateLimitStore, type RedisCommandClient, type RedisRateLimitStoreOptions } from './redis-store.js';
export type { AcquireResult, RateLimitOutcome, RateLimitPolicy, RateLimitReservation, RateLimitScope, RateLimitStore } from './store.js';
