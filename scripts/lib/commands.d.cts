export function has(command: string): boolean;
