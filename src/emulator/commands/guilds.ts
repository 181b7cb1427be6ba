/** The world's read routes: a guild, its channels (threads included), its roles and one member. */
import { isPathId, json, type Reply } from '../http.js';
import type { CommandRequest } from './operations.js';
import { channelJson, guildJson, memberJson, roleJson } from '../world/render.js';

/** `GET /guilds/{id}`. */
export const getGuild = (r: CommandRequest): Reply => json(200, guildJson(r.guild!));

/** `GET /guilds/{id}/channels`. */
export const listChannels = (r: CommandRequest): Reply => json(200, [...r.guild!.channels.values()].map(channelJson));

/** `GET /guilds/{id}/roles`. */
export const listRoles = (r: CommandRequest): Reply => json(200, [...r.guild!.roles.values()].map(roleJson));

/** `GET /guilds/{id}/members/{user}`. */
export const getMember = (r: CommandRequest): Reply => {
  const member = isPathId(r.memberId!) ? r.guild!.members.get(r.memberId!) : undefined;
  if (member === undefined) return json(404, { code: 10007, message: 'Unknown Member' });
  return json(200, memberJson(member, r.ctx.options.users.get(member.userId)));
};
