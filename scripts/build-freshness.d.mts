export function stale(output: string, sources: string[]): boolean;
export const SERVER_OUTPUTS: string[];
export const SERVER_SOURCES: string[];
