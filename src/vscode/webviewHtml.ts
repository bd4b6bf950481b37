// The chat webview's document: a strict CSP (nothing but our own built assets and one nonce'd
// script), theme from --vscode-* variables (in style.css), and no inline code at all. Pure, so
// the webview tests in Chromium serve exactly this page.
import { randomBytes } from 'node:crypto';

export function createNonce(): string {
	return randomBytes(18).toString('base64');
}

export interface WebviewPage {
	/** The webview's `cspSource`: the origin its own resources load from. */
	readonly cspSource: string;
	/** The URL of a built asset in dist/webview/ (`main.js`, `style.css`). */
	readonly assetUrl: (name: string) => string;
	readonly nonce: string;
}

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
	return [
		"default-src 'none'",
		`style-src ${cspSource}`,
		`font-src ${cspSource}`,
		`img-src ${cspSource} data:`,
		`script-src 'nonce-${nonce}'`,
		"base-uri 'none'",
		"form-action 'none'",
	].join('; ');
}

export function webviewHtml({ cspSource, assetUrl, nonce }: WebviewPage): string {
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(assetUrl('style.css'))}">
<title>Aside</title>
</head>
<body>
<div id="app" class="app" aria-busy="true"></div>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(assetUrl('main.js'))}"></script>
</body>
</html>`;
}
