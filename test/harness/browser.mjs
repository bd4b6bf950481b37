// Launches Debian's Chromium through playwright-core with the flags this closed network needs
// (without the background-networking ones Chromium keeps dialing out and being refused).
import { chromium } from 'playwright-core';
import { chromiumPath } from './tools.mjs';

export const chromiumArgs = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];

export function launchChromium(options = {}) {
	return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, ...options });
}
