/** The world's read routes: a guild, its channels (threads included), its roles and one member. */
import { isPathId, json, type Reply } from '../kernel/http.js';
import type { CommandRequest } from './operations.js';
import { botMemberJson, channelJson, guildWithCountsJson, memberJson, roleJson } from '../world/render.js';

/** `GET /guilds/{id}`. */
export const getGuild = (r: CommandRequest): Reply => json(200, guildWithCountsJson(r.guild!));

/** `GET /guilds/{id}/channels`. */
export const listChannels = (r: CommandRequest): Reply =>
  json(
    200,
    [...r.guild!.channels.values()].map((c) => channelJson(c, r.guild!)),
  );

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
