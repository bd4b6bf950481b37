import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PermissionMode } from '../../vocabulary/permissionModes';
import { decidePermission, OPEN_CONTEXT, type PolicyCall } from './policy';
import { parsePermissionRules } from './rules';

const call = (domain: string, alwaysAsk?: string): PolicyCall => ({ tool: 'WebFetch', kind: 'fetch', domain, paths: [], ...(alwaysAsk ? { alwaysAsk } : {}) });
const decide = (domain: string, mode: PermissionMode, rules: Record<string, string[]> = {}, trusted = true, alwaysAsk?: string) =>
	decidePermission(call(domain, alwaysAsk), mode, { ...OPEN_CONTEXT, trusted, rules: parsePermissionRules(rules).rules }, ['/ws']);

describe('WebFetch rules', () => {
	it('parses domain:host and domain:*.host as Claude Code writes them, and names what is wrong with other patterns', () => {
		const { rules, problems } = parsePermissionRules({
			allow: ['WebFetch(domain:docs.example.com)', 'WebFetch(domain:*.example.org)', 'WebFetch(domain:127.0.0.1)', 'WebFetch(example.com)', 'WebFetch(domain:*)', 'WebFetch(domain:https://x.com/a)'],
		});
		assert.deepEqual(rules.allow.map((rule) => rule.text), ['WebFetch(domain:docs.example.com)', 'WebFetch(domain:*.example.org)', 'WebFetch(domain:127.0.0.1)']);
		assert.equal(problems.length, 3);
		assert.match(problems[0] ?? '', /"WebFetch\(example\.com\)" \(a WebFetch pattern names a host: domain:example\.com/);
		assert.match(problems[1] ?? '', /write WebFetch alone to match every fetch/);
		assert.match(problems[2] ?? '', /is not a host name such as example\.com \(no scheme, path or port\)/);
	});

	it('matches a host exactly, or the hosts under a *. domain (not the domain itself)', () => {
		const rules = { allow: ['WebFetch(domain:docs.example.com)', 'WebFetch(domain:*.example.org)'] };
		assert.equal(decide('docs.example.com', 'ask', rules).verdict, 'allow');
		assert.equal(decide('example.com', 'ask', rules).verdict, 'ask');
		assert.equal(decide('evil-docs.example.com', 'ask', rules).verdict, 'ask');
		assert.equal(decide('a.example.org', 'ask', rules).verdict, 'allow');
		assert.equal(decide('a.b.example.org', 'ask', rules).verdict, 'allow');
		assert.equal(decide('example.org', 'ask', rules).verdict, 'ask');
		assert.equal(decide('notexample.org', 'ask', rules).verdict, 'ask');
	});

	it('asks in Ask, Auto-edit and Plan mode, runs in Full access, and offers "Always allow" for the host', () => {
		const asked = decide('docs.example.com', 'ask');
		assert.equal(asked.verdict, 'ask');
		assert.equal(asked.reason, 'ask mode asks before fetching a web page');
		assert.deepEqual(asked.allowRules, ['WebFetch(domain:docs.example.com)']);
		assert.equal(decide('docs.example.com', 'auto-edit').verdict, 'ask');
		assert.equal(decide('docs.example.com', 'plan').verdict, 'ask', 'plan mode changes nothing by fetching, but asks');
		assert.equal(decide('docs.example.com', 'full-access').verdict, 'allow');
	});

	it('is refused in an untrusted workspace, and by a deny rule; an ask rule asks in Full access', () => {
		assert.equal(decide('docs.example.com', 'full-access', {}, false).verdict, 'deny');
		const denied = decide('docs.example.com', 'full-access', { deny: ['WebFetch(domain:*.example.com)'] });
		assert.equal(denied.verdict, 'deny');
		assert.match(denied.reason, /the rule WebFetch\(domain:\*\.example\.com\) in aside\.permissions\.rules "deny" refuses it/);
		assert.equal(decide('docs.example.com', 'full-access', { ask: ['WebFetch'] }).verdict, 'ask');
	});

	it('a local address asks whatever the rules and the mode (a deny rule still refuses)', () => {
		const why = 'intranet.lan is on your own computer or network (10.0.0.5 is a private address (RFC 1918))';
		for (const mode of ['ask', 'auto-edit', 'plan', 'full-access'] as const) {
			const decision = decide('intranet.lan', mode, { allow: ['WebFetch', 'WebFetch(domain:intranet.lan)'] }, true, why);
			assert.equal(decision.verdict, 'ask', mode);
			assert.equal(decision.reason, why);
			assert.equal(decision.allowRules, undefined);
		}
		assert.equal(decide('intranet.lan', 'full-access', { deny: ['WebFetch(domain:intranet.lan)'] }, true, why).verdict, 'deny');
	});
});
