import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, createNonce, webviewHtml } from './webviewHtml';

describe('webviewHtml', () => {
	const html = webviewHtml({ cspSource: 'https://webview.test', assetUrl: (name) => `https://webview.test/dist/${name}`, nonce: 'n0nce' });

	it('allows only our own assets and the one nonce-bearing script', () => {
		const csp = contentSecurityPolicy('https://webview.test', 'n0nce');
		assert.match(csp, /^default-src 'none'; /);
		assert.match(csp, /script-src 'nonce-n0nce'/);
		assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
		assert.ok(html.includes(`content="${csp}"`));
	});

	it('loads the built script with the nonce and has no inline script or handler', () => {
		assert.match(html, /<script nonce="n0nce" src="https:\/\/webview\.test\/dist\/main\.js"><\/script>/);
		assert.equal(html.match(/<script/g)?.length, 1);
		assert.doesNotMatch(html, /\son[a-z]+=/i);
		assert.doesNotMatch(html, /style="/);
	});

	it('makes a fresh, unguessable nonce each time', () => {
		const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
		assert.equal(nonces.size, 50);
		for (const nonce of nonces) {
			assert.match(nonce, /^[A-Za-z0-9+/]{24}$/);
		}
	});
});
