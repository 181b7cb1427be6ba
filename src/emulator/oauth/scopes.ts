/** OAuth scopes the emulator knows, and what the social SDK scopes stand for. */

/** Every scope the authorize endpoint accepts by name (the service's documented list). */
export const KNOWN_SCOPES: readonly string[] = [
  'openid',
  'identify',
  'email',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'connections',
  'relationships.read',
  'relationships.write',
  'presences.read',
  'activities.read',
  'activities.write',
  'applications.commands',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'dm_channels.read',
  'role_connections.write',
  'lobbies.write',
  'sdk.social_layer',
  'sdk.social_layer_presence',
  'gdm.join',
  'rpc',
  'bot',
  'webhook.incoming',
  'messages.read',
  'voice',
];

/**
 * Scopes that need a choice on the consent screen (a guild for `bot`, a channel for
 * `webhook.incoming`) which the headless consent cannot make, and which a game sign-in never asks for.
 */
export const SCOPES_NEEDING_INTERACTIVE_CONSENT: readonly string[] = ['bot', 'webhook.incoming'];

// The SDK scopes "expand to all scopes the integration needs"; the emulator only checks identify.
const EXPANSIONS: Record<string, readonly string[]> = {
  'sdk.social_layer': [
    'identify',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'activities.read',
    'activities.write',
    'dm_channels.read',
    'lobbies.write',
    'gdm.join',
  ],
  'sdk.social_layer_presence': ['identify', 'relationships.read', 'presences.read', 'activities.read', 'activities.write'],
};

/** Splits a space-separated scope string, dropping empty parts and duplicates, keeping order. */
export function parseScope(scope: string): string[] {
  return [...new Set(scope.split(' ').filter((s) => s !== ''))];
}

/** The granted scopes plus what the SDK scopes among them expand to. */
export function effectiveScopes(granted: readonly string[]): Set<string> {
  const out = new Set(granted);
  for (const scope of granted) for (const implied of EXPANSIONS[scope] ?? []) out.add(implied);
  return out;
}
