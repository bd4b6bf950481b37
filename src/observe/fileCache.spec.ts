import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_CACHE_BYTES, DEFAULT_MAX_FILE_BYTES, ENTRY_OVERHEAD_BYTES, FileCache } from './fileCache';

const ROOT = join('/', 'w');
const at = (name: string) => join(ROOT, name);
const bytes = (length: number, fill = 'a') => Buffer.alloc(length, fill);

describe('FileCache', () => {
	it('keeps bytes up to maxFileBytes and only a fingerprint over it', () => {
		const cache = new FileCache({ maxFileBytes: 100 });
		const small = cache.remember(at('small.ts'), bytes(100), 1);
		const large = cache.remember(at('large.ts'), bytes(101), 2);
		assert.equal(small?.kind, 'content');
		assert.deepEqual(large && { kind: large.kind, size: large.size, mtimeMs: large.mtimeMs }, { kind: 'fingerprint', size: 101, mtimeMs: 2 });
		assert.ok(!('bytes' in (large ?? {})));
	});

	it('evicts the least recently used entries past maxCacheBytes, counting what each costs', () => {
		const entryCost = (name: string, size: number) => ENTRY_OVERHEAD_BYTES + at(name).length * 2 + size;
		const budget = entryCost('a.ts', 1000) * 3;
		const cache = new FileCache({ maxFileBytes: 1000, maxCacheBytes: budget });
		cache.remember(at('a.ts'), bytes(1000), 1);
		cache.remember(at('b.ts'), bytes(1000), 1);
		cache.remember(at('c.ts'), bytes(1000), 1);
		assert.equal(cache.totalBytes, budget);
		// Reading a.ts again makes b.ts the least recently used.
		cache.remember(at('a.ts'), bytes(1000, 'b'), 2);
		cache.remember(at('d.ts'), bytes(1000), 1);
		assert.deepEqual(cache.paths(), [at('c.ts'), at('a.ts'), at('d.ts')]);
		assert.ok(cache.totalBytes <= budget);
		// Looking an entry up is not a use.
		cache.get(at('c.ts'));
		cache.remember(at('e.ts'), bytes(10), 1);
		assert.equal(cache.has(at('c.ts')), false);
		cache.delete(at('a.ts'));
		cache.delete(at('d.ts'));
		cache.delete(at('e.ts'));
		assert.equal(cache.totalBytes, 0);
		assert.equal(cache.count, 0);
	});

	it('bounds fingerprints too: each costs its overhead', () => {
		const cache = new FileCache({ maxFileBytes: 10, maxCacheBytes: 10_000 });
		for (let i = 0; i < 1000; i++) {
			cache.rememberFingerprint(at(`big-${i}.bin`), 1_000_000, i);
		}
		assert.ok(cache.totalBytes <= 10_000);
		assert.ok(cache.count < 1000 && cache.count > 0);
		assert.equal(cache.has(at('big-999.bin')), true);
	});

	it('never lets paths under excluded folders in, comparing whole path segments', () => {
		const storage = join(ROOT, '.aside', 'sessions');
		const cache = new FileCache({ excludedFolders: [storage] });
		assert.equal(cache.remember(join(storage, 'other', 'transcript.jsonl'), bytes(3), 1), undefined);
		assert.equal(cache.remember(storage, bytes(3), 1), undefined);
		assert.equal(cache.count, 0);
		assert.equal(cache.isExcluded(join(ROOT, '.aside', 'sessions-notes.md')), false);
		assert.equal(cache.remember(join(ROOT, '.aside', 'sessions-notes.md'), bytes(3), 1)?.kind, 'content');
	});

	it('learns an unknown mtime without replacing a known one or counting as a use', () => {
		const cache = new FileCache();
		cache.remember(at('own.ts'), bytes(3), undefined);
		cache.remember(at('read.ts'), bytes(3), 5);
		const version = cache.get(at('own.ts'))?.version;
		cache.learnMtime(at('own.ts'), 7);
		cache.learnMtime(at('read.ts'), 9);
		cache.learnMtime(at('missing.ts'), 9);
		assert.equal(cache.get(at('own.ts'))?.mtimeMs, 7);
		assert.equal(cache.get(at('own.ts'))?.version, version);
		assert.equal(cache.get(at('read.ts'))?.mtimeMs, 5);
		assert.deepEqual(cache.paths(), [at('own.ts'), at('read.ts')]);
	});

	it('has defaults of 1 MB per file and 16 MB in all, and never a file limit above the cache', () => {
		const cache = new FileCache();
		assert.equal(cache.maxFileBytes, DEFAULT_MAX_FILE_BYTES);
		assert.equal(cache.maxCacheBytes, DEFAULT_MAX_CACHE_BYTES);
		assert.equal(DEFAULT_MAX_FILE_BYTES, 1024 * 1024);
		assert.equal(DEFAULT_MAX_CACHE_BYTES, 16 * 1024 * 1024);
		assert.ok(new FileCache({ maxFileBytes: 5000, maxCacheBytes: 1000 }).maxFileBytes < 1000);
	});
});
