import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readUserServers } from './serverConfig';
import { withDisabled } from './serverToggle';

describe('withDisabled (the server list\'s Disable / Enable)', () => {
	const setting = {
		files: { command: 'npx', args: ['-y', 'server-filesystem'], env: { LOG_LEVEL: 'warn' } },
		github: { type: 'http', url: 'https://api.example.com/mcp/', disabled: false },
		later: { command: 'node', disabled: true },
	};

	it('sets disabled on the named entry only, keeping its other fields and the others as they were', () => {
		const result = withDisabled(setting, 'files', true);
		assert.ok('value' in result);
		assert.deepEqual(result.value, {
			files: { command: 'npx', args: ['-y', 'server-filesystem'], env: { LOG_LEVEL: 'warn' }, disabled: true },
			github: setting.github,
			later: setting.later,
		});
		assert.deepEqual(Object.keys(result.value), ['files', 'github', 'later'], 'the order of the entries is kept');
		assert.equal(result.value.github, setting.github, 'the other entries are the same objects');
		assert.equal('disabled' in setting.files, false, 'the setting read is not changed in place');
		const read = readUserServers(result.value);
		assert.deepEqual(read.servers.map((server) => [server.name, server.disabled]), [['files', true], ['github', false], ['later', true]]);
	});

	it('enables a disabled entry by writing disabled: false', () => {
		const result = withDisabled(setting, 'later', false);
		assert.ok('value' in result);
		assert.deepEqual(result.value.later, { command: 'node', disabled: false });
		assert.deepEqual(result.value.files, setting.files);
	});

	it('refuses a server the user settings do not name, and a setting that is not an object of servers', () => {
		for (const [value, server] of [[setting, 'workspace-only'], [undefined, 'files'], [[], 'files'], [{ files: 'npx' }, 'files'], [setting, '__proto__']] as const) {
			const result = withDisabled(value, server, true);
			assert.ok('refused' in result, `refused: ${JSON.stringify(value)} / ${server}`);
			assert.match(result.refused, new RegExp(`no server named "${server}"`));
		}
	});
});
