export declare const repoRoot: string;
export declare const toolsDir: string;
export declare const chromiumPath: string;
export declare function ensureTools(options?: { chromium?: boolean }): unknown;
