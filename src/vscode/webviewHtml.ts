// The chat webview's document: a strict CSP (nothing but our own built assets and one nonce'd
// script), theme from --vscode-* variables (in style.css), and no inline code at all.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function createNonce(): string {
	return randomBytes(18).toString('base64');
}

export function webviewHtml(webview: vscode.Webview, assets: vscode.Uri, nonce: string): string {
	const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(assets, name)).toString();
	const csp = [
		"default-src 'none'",
		`style-src ${webview.cspSource}`,
		`font-src ${webview.cspSource}`,
		`img-src ${webview.cspSource} data:`,
		`script-src 'nonce-${nonce}'`,
	].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('style.css')}">
<title>Aside</title>
</head>
<body>
<div id="app" class="app" aria-busy="true"></div>
<script nonce="${nonce}" src="${asset('main.js')}"></script>
</body>
</html>`;
}

