export declare const repoRoot: string;
export declare const toolsDir: string;
export declare const chromiumPath: string;
export declare function ensureTools(options?: { chromium?: boolean }): unknown;
export declare function toolEnvironment(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function installNpmTool(source: string, target: string, options?: { env?: NodeJS.ProcessEnv; extra?: NodeJS.ProcessEnv }): void;
