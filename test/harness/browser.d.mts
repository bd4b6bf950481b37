import type { Browser, LaunchOptions } from 'playwright-core';
export declare const chromiumArgs: string[];
export declare function launchChromium(options?: LaunchOptions): Promise<Browser>;
