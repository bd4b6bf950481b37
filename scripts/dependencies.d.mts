/** Why the dependencies must be installed first, or undefined when they are current. */
export declare function installReason(root: string): string | undefined;

/** Runs `npm ci` in `root` when installReason says so; true when it did. Throws when it fails. */
export declare function ensureDependencies(root: string, options?: { readonly log?: (line: string) => void; readonly env?: NodeJS.ProcessEnv }): boolean;
