/**
 * PlatformApi: the one public class of `social-sdk-auth/api`. It holds one request core in a
 * private field and delegates each operation to the resource module that holds it as a plain
 * function over that core (lobbies.ts, messages.ts, commands.ts): one method per operation of
 * the HTTP interface, named after the spec's operations. Ids are snowflakes as decimal strings.
 */
import { inspect } from 'node:util';
import type {
  ApplicationCommand,
  ApplicationCommandBulkItem,
  ApplicationCommandCreateBody,
  ApplicationCommandEditBody,
  ApplicationCommandPermissionsEditBody,
  GuildApplicationCommandPermissions,
} from '../commands/types.js';
import type {
  AddLobbyMemberBody,
  BulkLobbyMemberInput,
  CreateLobbyBody,
  CreateOrJoinLobbyBody,
  EditLobbyBody,
  Lobby,
  LobbyChannelInvite,
  LobbyMember,
  LobbyMessage,
  Metadata,
  SendLobbyMessageBody,
  Snowflake,
} from '../rules/index.js';
import * as commandOps from './commands.js';
import type { CommandUpsert, EditCommandOptions, GetCommandsQuery } from './commands.js';
import { RequestCore, type ApiRequest, type PlatformApiOptions, type RequestOptions } from './core.js';
import * as lobbyOps from './lobbies.js';
import type { GetLobbyMessagesQuery } from './lobbies.js';
import * as messageOps from './messages.js';
import type { ChannelMessage, CreateMessageBody, EditMessageBody } from './messages.js';

/**
 * The platform's HTTP interface for game backends.
 *
 * ```ts
 * import { PlatformApi } from 'social-sdk-auth/api';
 * const api = new PlatformApi({ botToken: process.env.BOT_TOKEN! });
 * const lobby = await api.createLobby({ members: [{ id: playerId }], idle_timeout_seconds: 300 });
 * ```
 */
export class PlatformApi {
  /** The request core; private in fact, so no property walk, inspect or JSON reaches it. */
  readonly #core: RequestCore;

  constructor(options: PlatformApiOptions) {
    this.#core = new RequestCore(options);
  }

  /** The API base requests go to. */
  get apiBase(): string {
    return this.#core.apiBase;
  }

  /** Which credential the client sends: `'Bot'` or `'Bearer'`. */
  get credential(): 'Bot' | 'Bearer' {
    return this.#core.credential;
  }

  /**
   * Sends one request through the rate limiter. The typed methods are built on this; call it
   * directly only for an operation they do not cover yet.
   */
  request<T>(call: ApiRequest, options?: RequestOptions, where?: string): Promise<T> {
    return this.#core.request<T>(call, options, where);
  }

  /** `POST /lobbies`: creates a lobby; listed members are added. */
  createLobby(lobby: CreateLobbyBody = {}, options?: RequestOptions): Promise<Lobby> {
    return lobbyOps.createLobby(this.#core, lobby, options);
  }

  /** `GET /lobbies/{lobby_id}`. */
  getLobby(lobbyId: Snowflake, options?: RequestOptions): Promise<Lobby> {
    return lobbyOps.getLobby(this.#core, lobbyId, options);
  }

  /** `PATCH /lobbies/{lobby_id}`: metadata overwrites; members replaces the list. */
  editLobby(lobbyId: Snowflake, changes: EditLobbyBody, options?: RequestOptions): Promise<Lobby> {
    return lobbyOps.editLobby(this.#core, lobbyId, changes, options);
  }

  /** `DELETE /lobbies/{lobby_id}`: succeeds for a lobby already deleted. */
  deleteLobby(lobbyId: Snowflake, options?: RequestOptions): Promise<void> {
    return lobbyOps.deleteLobby(this.#core, lobbyId, options);
  }

  /** `PUT /lobbies/{lobby_id}/members/{user_id}`: adds the user, or updates an existing member. */
  addLobbyMember(lobbyId: Snowflake, userId: Snowflake, member: AddLobbyMemberBody = {}, options?: RequestOptions): Promise<LobbyMember> {
    return lobbyOps.addLobbyMember(this.#core, lobbyId, userId, member, options);
  }

  /** `DELETE /lobbies/{lobby_id}/members/{user_id}`: succeeds for a non-member; fails for a missing lobby. */
  removeLobbyMember(lobbyId: Snowflake, userId: Snowflake, options?: RequestOptions): Promise<void> {
    return lobbyOps.removeLobbyMember(this.#core, lobbyId, userId, options);
  }

  /** `DELETE /lobbies/{lobby_id}/members/@me`: the player (access token) leaves the lobby. */
  leaveLobby(lobbyId: Snowflake, options?: RequestOptions): Promise<void> {
    return lobbyOps.leaveLobby(this.#core, lobbyId, options);
  }

  /** `POST /lobbies/{lobby_id}/members/bulk`: 1 to 25 adds, updates and removals in one request. */
  bulkUpdateLobbyMembers(lobbyId: Snowflake, members: BulkLobbyMemberInput[], options?: RequestOptions): Promise<LobbyMember[]> {
    return lobbyOps.bulkUpdateLobbyMembers(this.#core, lobbyId, members, options);
  }

  /** `PUT /lobbies`: the player (access token) joins the lobby with `secret`, creating it if none exists. */
  createOrJoinLobby(request: CreateOrJoinLobbyBody, options?: RequestOptions): Promise<Lobby> {
    return lobbyOps.createOrJoinLobby(this.#core, request, options);
  }

  /** `POST /lobbies/{lobby_id}/messages`: sends a message as the player (access token), who must be a member. */
  sendLobbyMessage(lobbyId: Snowflake, message: SendLobbyMessageBody, options?: RequestOptions): Promise<LobbyMessage> {
    return lobbyOps.sendLobbyMessage(this.#core, lobbyId, message, options);
  }

  /** `GET /lobbies/{lobby_id}/messages`: the most recent messages, newest first, at most 200. */
  getLobbyMessages(lobbyId: Snowflake, query: GetLobbyMessagesQuery = {}, options?: RequestOptions): Promise<LobbyMessage[]> {
    return lobbyOps.getLobbyMessages(this.#core, lobbyId, query, options);
  }

  /** `PATCH /lobbies/{lobby_id}/channel-linking`: links a channel to the lobby, or unlinks with `null`. */
  linkChannelToLobby(lobbyId: Snowflake, channelId: Snowflake | null, options?: RequestOptions): Promise<Lobby> {
    return lobbyOps.linkChannelToLobby(this.#core, lobbyId, channelId, options);
  }

  /**
   * A single-use invite, valid one hour, to the lobby's linked channel: for `userId`
   * (`POST /lobbies/{lobby_id}/members/{user_id}/invites`, bot token), or with `userId`
   * `'@me'` for the player whose access token the client holds.
   */
  createLobbyChannelInvite(lobbyId: Snowflake, userId: Snowflake | '@me', options?: RequestOptions): Promise<LobbyChannelInvite> {
    return lobbyOps.createLobbyChannelInvite(this.#core, lobbyId, userId, options);
  }

  /** `PUT /lobbies/{lobby_id}/messages/{message_id}/moderation-metadata`: replaces the message's moderation metadata. */
  setLobbyMessageModerationMetadata(lobbyId: Snowflake, messageId: Snowflake, metadata: Metadata, options?: RequestOptions): Promise<void> {
    return lobbyOps.setLobbyMessageModerationMetadata(this.#core, lobbyId, messageId, metadata, options);
  }

  /** `PUT /channels/{channel_id}/voice-status`: sets (or clears with `null`) a voice channel's status, up to 500 characters. */
  setVoiceChannelStatus(channelId: Snowflake, status: string | null, options?: RequestOptions): Promise<void> {
    return lobbyOps.setVoiceChannelStatus(this.#core, channelId, status, options);
  }

  /**
   * `POST /channels/{channel_id}/messages`: sends a message as the application's bot (bot token).
   * With `files`, the body goes as `multipart/form-data` (`payload_json` and `files[n]`).
   *
   * ```ts
   * const message = await api.createMessage(channelId, {
   *   content: 'Match replay',
   *   files: [{ name: 'replay.bin', data: await readFile('replay.bin') }],
   * });
   * message.attachments[0].url;
   * ```
   */
  createMessage(channelId: Snowflake, message: CreateMessageBody, options?: RequestOptions): Promise<ChannelMessage> {
    return messageOps.createMessage(this.#core, channelId, message, options);
  }

  /** `GET /channels/{channel_id}/messages/{message_id}` (bot token). */
  getMessage(channelId: Snowflake, messageId: Snowflake, options?: RequestOptions): Promise<ChannelMessage> {
    return messageOps.getMessage(this.#core, channelId, messageId, options);
  }

  /**
   * `PATCH /channels/{channel_id}/messages/{message_id}` (bot token): the fields given replace the
   * message's; only the application that sent it may edit it. IS_COMPONENTS_V2 cannot be removed.
   */
  editMessage(channelId: Snowflake, messageId: Snowflake, changes: EditMessageBody, options?: RequestOptions): Promise<ChannelMessage> {
    return messageOps.editMessage(this.#core, channelId, messageId, changes, options);
  }

  /** `DELETE /channels/{channel_id}/messages/{message_id}` (bot token): resolves once the message is gone. */
  deleteMessage(channelId: Snowflake, messageId: Snowflake, options?: RequestOptions): Promise<void> {
    return messageOps.deleteMessage(this.#core, channelId, messageId, options);
  }

  /** `POST /applications/{application_id}/commands`: creates a global command, or replaces the one with its name and type. */
  createGlobalCommand(applicationId: string, command: ApplicationCommandCreateBody, options?: RequestOptions): Promise<CommandUpsert> {
    return commandOps.createGlobalCommand(this.#core, applicationId, command, options);
  }

  /** `POST /applications/{application_id}/guilds/{guild_id}/commands`: creates a guild command, or replaces the one with its name and type. */
  createGuildCommand(applicationId: string, guildId: string, command: ApplicationCommandCreateBody, options?: RequestOptions): Promise<CommandUpsert> {
    return commandOps.createGuildCommand(this.#core, applicationId, guildId, command, options);
  }

  /** `GET /applications/{application_id}/commands/{command_id}`. */
  getGlobalCommand(applicationId: string, commandId: string, options?: RequestOptions): Promise<ApplicationCommand> {
    return commandOps.getGlobalCommand(this.#core, applicationId, commandId, options);
  }

  /** `GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}`. */
  getGuildCommand(applicationId: string, guildId: string, commandId: string, options?: RequestOptions): Promise<ApplicationCommand> {
    return commandOps.getGuildCommand(this.#core, applicationId, guildId, commandId, options);
  }

  /** `GET /applications/{application_id}/commands`: every global command of the application. */
  getGlobalCommands(applicationId: string, query?: GetCommandsQuery, options?: RequestOptions): Promise<ApplicationCommand[]> {
    return commandOps.getGlobalCommands(this.#core, applicationId, query, options);
  }

  /** `GET /applications/{application_id}/guilds/{guild_id}/commands`: every command of the application in the guild. */
  getGuildCommands(applicationId: string, guildId: string, query?: GetCommandsQuery, options?: RequestOptions): Promise<ApplicationCommand[]> {
    return commandOps.getGuildCommands(this.#core, applicationId, guildId, query, options);
  }

  /** `PATCH /applications/{application_id}/commands/{command_id}`: every field given replaces the old value. */
  editGlobalCommand(applicationId: string, commandId: string, changes: ApplicationCommandEditBody, options?: EditCommandOptions): Promise<ApplicationCommand> {
    return commandOps.editGlobalCommand(this.#core, applicationId, commandId, changes, options);
  }

  /** `PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}`: every field given replaces the old value. */
  editGuildCommand(
    applicationId: string,
    guildId: string,
    commandId: string,
    changes: ApplicationCommandEditBody,
    options?: EditCommandOptions,
  ): Promise<ApplicationCommand> {
    return commandOps.editGuildCommand(this.#core, applicationId, guildId, commandId, changes, options);
  }

  /** `DELETE /applications/{application_id}/commands/{command_id}` (204); its permissions go with it. */
  deleteGlobalCommand(applicationId: string, commandId: string, options?: RequestOptions): Promise<void> {
    return commandOps.deleteGlobalCommand(this.#core, applicationId, commandId, options);
  }

  /** `DELETE /applications/{application_id}/guilds/{guild_id}/commands/{command_id}` (204); its permissions go with it. */
  deleteGuildCommand(applicationId: string, guildId: string, commandId: string, options?: RequestOptions): Promise<void> {
    return commandOps.deleteGuildCommand(this.#core, applicationId, guildId, commandId, options);
  }

  /** `PUT /applications/{application_id}/commands`: replaces every global command (all types) with `commands`; answers the new list. */
  bulkOverwriteGlobalCommands(applicationId: string, commands: ApplicationCommandBulkItem[], options?: RequestOptions): Promise<ApplicationCommand[]> {
    return commandOps.bulkOverwriteGlobalCommands(this.#core, applicationId, commands, options);
  }

  /** `PUT /applications/{application_id}/guilds/{guild_id}/commands`: replaces every command of the application in the guild; answers the new list. */
  bulkOverwriteGuildCommands(
    applicationId: string,
    guildId: string,
    commands: ApplicationCommandBulkItem[],
    options?: RequestOptions,
  ): Promise<ApplicationCommand[]> {
    return commandOps.bulkOverwriteGuildCommands(this.#core, applicationId, guildId, commands, options);
  }

  /** `GET /applications/{application_id}/guilds/{guild_id}/commands/permissions`: the permissions of every command that has some in the guild. */
  getGuildCommandPermissions(applicationId: string, guildId: string, options?: RequestOptions): Promise<GuildApplicationCommandPermissions[]> {
    return commandOps.getGuildCommandPermissions(this.#core, applicationId, guildId, options);
  }

  /** `GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions`: one command's permissions in the guild. */
  getCommandPermissions(applicationId: string, guildId: string, commandId: string, options?: RequestOptions): Promise<GuildApplicationCommandPermissions> {
    return commandOps.getCommandPermissions(this.#core, applicationId, guildId, commandId, options);
  }

  /**
   * `PUT /applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions`:
   * replaces the command's overwrites in the guild (at most 100). Needs a client made with the
   * `accessToken` of a user who may manage the guild and its roles, granted
   * `applications.commands.permissions.update`: the service refuses bot tokens.
   */
  editCommandPermissions(
    applicationId: string,
    guildId: string,
    commandId: string,
    permissions: ApplicationCommandPermissionsEditBody,
    options?: RequestOptions,
  ): Promise<GuildApplicationCommandPermissions> {
    return commandOps.editCommandPermissions(this.#core, applicationId, guildId, commandId, permissions, options);
  }

  /**
   * Closes the connections (and the default in-memory store). Calls after this, and calls still
   * waiting for a rate limit, for the store or to retry, fail with ERR_API_CLOSED; requests already sent get their answers.
   */
  close(): Promise<void> {
    return this.#core.close();
  }

  toJSON(): Record<string, unknown> {
    return { apiBase: this.apiBase, credential: this.credential };
  }

  [inspect.custom](): string {
    return `${this.constructor.name} { apiBase: '${this.apiBase}', credential: '${this.credential}' }`;
  }
}
