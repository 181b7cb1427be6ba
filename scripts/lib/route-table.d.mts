// Types of route-table.mjs, for the test that reads it.
export declare const BEGIN: string;
export declare const END: string;
export declare const STATUSES: Readonly<Record<string, string>>;
export declare function routePath(segments: readonly string[]): string;
export declare function renderRouteTable(
  tables: Readonly<Record<string, readonly { method: string; segments: string[]; body: string; bucket?: { id: string } }[]>>,
  statuses?: Readonly<Record<string, string>>,
): string;
export declare function withRouteTable(doc: string, table: string): string;
