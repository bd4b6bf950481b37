import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostOf, localReason, resolveHost } from './addresses';
import { LocalApprovals, LOCAL_APPROVAL_MS } from './localApprovals';

describe('localReason', () => {
	it('names every non-public IPv4 range', () => {
		const cases: Record<string, RegExp> = {
			'127.0.0.1': /loopback/,
			'127.255.255.254': /loopback/,
			'10.1.2.3': /private .*RFC 1918/,
			'172.16.0.1': /private/,
			'172.31.255.255': /private/,
			'192.168.0.10': /private/,
			'169.254.169.254': /link-local/,
			'0.0.0.0': /unspecified/,
			'100.64.0.1': /carrier-grade NAT/,
			'100.127.255.255': /carrier-grade NAT/,
			'224.0.0.1': /multicast/,
			'255.255.255.255': /reserved/,
		};
		for (const [address, why] of Object.entries(cases)) {
			assert.match(localReason(address) ?? 'public', why, address);
		}
	});

	it('leaves public IPv4 addresses alone, right next to the ranges', () => {
		for (const address of ['8.8.8.8', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '169.253.0.1', '11.0.0.1', '126.255.255.255', '128.0.0.1', '192.169.0.1']) {
			assert.equal(localReason(address), undefined, address);
		}
	});

	it('names the non-public IPv6 ranges, and an IPv4 address inside an IPv6 one by the IPv4 address', () => {
		const cases: Record<string, RegExp> = {
			'::1': /loopback/,
			'::': /unspecified/,
			'fc00::1': /unique local/,
			'fd12:3456::1': /unique local/,
			'fe80::1': /link-local/,
			'febf::1': /link-local/,
			'ff02::1': /multicast/,
			'::ffff:127.0.0.1': /loopback/,
			'::ffff:7f00:1': /loopback/,
			'::ffff:10.0.0.1': /private/,
			'64:ff9b::a9fe:a9fe': /link-local/,
			'2002:c0a8:0101::1': /private/,
		};
		for (const [address, why] of Object.entries(cases)) {
			assert.match(localReason(address) ?? 'public', why, address);
		}
		for (const address of ['2606:4700::1111', '2001:db8::1', '::ffff:8.8.8.8', 'fec0::1']) {
			assert.equal(localReason(address), undefined, address);
		}
	});

	it('reads a URL\'s host as the resolver gets it: the parser\'s IPv4 forms, IPv6 without brackets, no final dot', () => {
		assert.equal(hostOf(new URL('http://0x7f.1/')), '127.0.0.1');
		assert.equal(hostOf(new URL('http://2130706433/')), '127.0.0.1');
		assert.equal(hostOf(new URL('http://[::ffff:127.0.0.1]:8080/')), '::ffff:7f00:1');
		assert.equal(hostOf(new URL('http://Example.COM./a')), 'example.com');
		assert.match(localReason(hostOf(new URL('http://[::ffff:127.0.0.1]/'))) ?? '', /loopback/);
	});
});

describe('resolveHost', () => {
	it('checks every address a name resolves to; localhost is this computer by its name', async () => {
		const addresses = await resolveHost('localhost');
		assert.ok(addresses.length > 0);
		assert.ok(addresses.every((address) => address.local === 'a loopback address (this computer)'));
		assert.deepEqual(await resolveHost('10.0.0.7'), [{ address: '10.0.0.7', family: 4, local: 'a private address (RFC 1918)' }]);
		assert.deepEqual(await resolveHost('93.184.215.14'), [{ address: '93.184.215.14', family: 4 }]);
	});
});

describe('LocalApprovals', () => {
	it('lets a call reach the local addresses its card named, for a while, and no other', () => {
		let now = 1000;
		const approvals = new LocalApprovals(() => now);
		const card = [{ address: '127.0.0.1', family: 4 as const, local: 'a loopback address' }];
		assert.equal(approvals.unasked('wiki.lan', card).length, 1, 'not asked yet');
		approvals.asked('wiki.lan', card);
		assert.equal(approvals.unasked('wiki.lan', card).length, 0);
		assert.equal(approvals.unasked('wiki.lan', [{ address: '10.0.0.2', family: 4, local: 'a private address' }]).length, 1, 'another address');
		assert.equal(approvals.unasked('other.lan', card).length, 1, 'another host');
		assert.equal(approvals.unasked('wiki.lan', [{ address: '8.8.8.8', family: 4 }]).length, 0, 'a public address needs no card');
		now += LOCAL_APPROVAL_MS + 1;
		assert.equal(approvals.unasked('wiki.lan', card).length, 1, 'the card is old');
	});
});
