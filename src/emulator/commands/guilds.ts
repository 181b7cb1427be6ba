/** The world's read routes: a guild, its channels (threads included), its roles, one member and one channel. */
import { isPathId, json, type Reply } from '../http.js';
import type { CommandRequest } from './operations.js';
import type { EmulatorContext } from '../context.js';
import { errorBody, JsonErrorCode } from '../../rules/errors.js';
import { PermissionFlags } from '../../rules/permissions.js';
import { botChannelPermissions } from '../world/permissions.js';
import { botMemberJson, channelJson, guildWithCountsJson, memberJson, roleJson } from '../world/render.js';

/** `GET /guilds/{id}`. */
export const getGuild = (r: CommandRequest): Reply => json(200, guildWithCountsJson(r.guild!));

/** `GET /guilds/{id}/channels`. */
export const listChannels = (r: CommandRequest): Reply => json(200, [...r.guild!.channels.values()].map((c) => channelJson(c, r.guild!)));

/** `GET /guilds/{id}/roles`. */
export const listRoles = (r: CommandRequest): Reply => json(200, [...r.guild!.roles.values()].map(roleJson));

/** `GET /guilds/{id}/members/{user}`: a member, or an application's bot (every bot of the emulator is in every guild). */
export const getMember = (r: CommandRequest): Reply => {
  const id = r.memberId!;
  const member = isPathId(id) ? r.guild!.members.get(id) : undefined;
  if (member !== undefined) return json(200, memberJson(member, r.ctx.options.users.get(member.userId)));
  const app = isPathId(id) ? r.ctx.options.applications.get(id) : undefined;
  if (app !== undefined) return json(200, botMemberJson(app, r.guild!));
  return json(404, { code: 10007, message: 'Unknown Member' });
};

/**
 * `GET /channels/{id}` (bot): a channel of a guild of the world, as its type carries it. 404
 * Unknown Channel for an id that names none; 403 Missing Access when the bot may not view it.
 */
export function getChannel(ctx: EmulatorContext, applicationId: string, channelId: string): Reply {
  const found = isPathId(channelId) ? ctx.world.channel(channelId) : undefined;
  if (found === undefined) return json(404, errorBody(JsonErrorCode.UnknownChannel));
  const bits = botChannelPermissions(found.guild, found.channel, applicationId);
  if ((bits & PermissionFlags.ViewChannel) === 0n) return json(403, errorBody(JsonErrorCode.MissingAccess));
  return json(200, channelJson(found.channel, found.guild));
}
