import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { bind, body, live, numbered, reported, setup, T0, T2 } from '../testing/editedFilesSetup';

// Preparing a report at WAIT: what happens around it (later reads, events, cancellation) and what it costs.
describe('EditedFiles at WAIT', () => {
	it('a later read or own write wins over a report prepared before it', async (t) => {
		const { edited, seen, changed, path } = setup(t);
		seen('a.ts', 'one\n');
		changed('a.ts', 'two\n');
		const event = await reported(edited);
		edited.noteOwnWrite(path('a.ts'), 'mine\n');
		event.commit?.();
		changed('a.ts', 'mine\n', T2);
		assert.equal(await edited.prepare(live()), undefined);
	});

	it('an event during preparation keeps the file a candidate after the commit', async (t) => {
		let fire: (() => void) | undefined;
		const { edited, seen, changed } = setup(t, {}, (inner) => ({
			...bind(inner),
			readFile: async (path) => {
				const bytes = await inner.readFile(path);
				fire?.();
				fire = undefined;
				return bytes;
			},
		}));
		seen('a.ts', 'one\n');
		changed('a.ts', 'two\n');
		fire = () => {
			changed('a.ts', 'three\n', T2);
		};
		const event = await reported(edited);
		assert.match(body(event), /\+two/);
		event.commit?.();
		assert.match(body(await reported(edited)), /-two\n\+three/);
	});

	it('stops preparing when the request is cancelled, and leaves the changes for the next WAIT', async (t) => {
		const controller = new AbortController();
		const { edited, seen, changed, fs } = setup(t, {}, (inner) => ({
			...bind(inner),
			stat: async (path) => {
				controller.abort();
				return inner.stat(path);
			},
		}));
		seen('a.ts', 'a\n');
		seen('b.ts', 'b\n');
		changed('a.ts', 'a2\n');
		changed('b.ts', 'b2\n');
		assert.equal(await edited.prepare(controller.signal), undefined);
		// It stopped at the first file: b.ts was never looked at.
		assert.deepEqual(fs.calls.map(([method, path]) => [method, path.slice(-4)]), [['stat', 'a.ts']]);
		assert.equal(await edited.prepare(controller.signal), undefined);
		assert.equal(fs.count(), 1);
		assert.equal(edited.pendingCount, 2);
		const text = body(await reported(edited));
		assert.match(text, /a\.ts changed/);
		assert.match(text, /b\.ts changed/);
	});

	it('costs a WAIT nothing for unchanged cached files: the same calls with 10 or 10,000 of them', async (t) => {
		const callsWith = async (cached: number) => {
			const { edited, seen, changed, path, fs, events } = setup(t);
			for (let i = 0; i < cached; i++) {
				// Recorded without writing: only the one changed file exists on disk.
				edited.noteRead(path(`cached-${i}.ts`), Buffer.from(`file ${i}\n`), T0);
			}
			seen('changed.ts', 'before\n');
			fs.reset();
			assert.equal(await edited.prepare(live()), undefined);
			const idle = fs.count();
			events.fireChange(path('never-read.ts'));
			changed('changed.ts', 'after\n');
			const event = await reported(edited);
			event.commit?.();
			return { idle, changed: fs.calls.map(([method, file]) => `${method} ${relative(path('.'), file)}`) };
		};
		const small = await callsWith(10);
		const large = await callsWith(10_000);
		assert.deepEqual(small, { idle: 0, changed: ['stat changed.ts', 'readFile changed.ts'] });
		assert.deepEqual(large, small);
	});

	it('prepares one file per event-loop turn (the longest synchronous slice is logged as a note)', async (t) => {
		const { edited, seen, changed } = setup(t);
		const rows = numbered(9000, 'row');
		for (let i = 0; i < 4; i++) {
			// ~110 KB each, all different: the worst case stays under maxDiffBytes and maxDiffLines stops jsdiff.
			seen(`big-${i}.txt`, rows);
			changed(`big-${i}.txt`, numbered(9000, `other ${i}`));
			seen(`huge-${i}.txt`, 'h'.repeat(1_000_000));
			changed(`huge-${i}.txt`, `${'h'.repeat(999_999)}H`);
		}
		let turns = 0;
		let longest = 0;
		let last = performance.now();
		let running = true;
		const probe = () => {
			const now = performance.now();
			longest = Math.max(longest, now - last);
			last = now;
			turns++;
			if (running) {
				setImmediate(probe);
			}
		};
		setImmediate(probe);
		const event = await reported(edited);
		running = false;
		assert.match(body(event), /big-3\.txt changed; .* The diff is longer than 200 lines/);
		assert.match(body(event), /huge-3\.txt changed; .* The two versions are too large to compare/);
		// One turn per file at least: the probe ran between files.
		assert.ok(turns >= 8, `the probe ran ${turns} times`);
		t.diagnostic(`longest synchronous slice while preparing 8 files (4 × 110 KB all-different, 4 × 1 MB one-byte change): ${longest.toFixed(1)} ms`);
	});
});
