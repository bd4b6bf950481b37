// checkpoints: what keeping a file's previous content costs on the request path (a keep before
// each tool write: at most a copy of the previous text and one manifest append, nothing hashed;
// hashing and storing just after the write, off the request path), what the store side of
// a restore of 100 files costs (read each kept text back and write it), and how much storage a
// long session with churn takes: it must follow what changed, not the size of the workspace.
import { mkdirSync, mkdtempSync, promises as fs, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/base/clock';
import { hashText } from '../src/checkpoints/blobs';
import { writeTextSync } from '../src/checkpoints/textFile';
import { FileCheckpointStore, storedBytes } from '../src/checkpoints/store';
import { RecordingLogger } from '../src/testing/recordingLogger';
import type { FileChange } from '../src/tools/changes';
import { type BenchRow, measureAsync, prng, report, round, summarize, type TimingStats } from './harness';

const TARGET_US = 5_000;
const SIZES = [
	{ label: '1 KB', bytes: 1024, iterations: 300 },
	{ label: '1 MB', bytes: 1024 * 1024, iterations: 200 },
	{ label: '10 MB', bytes: 10 * 1024 * 1024, iterations: 20 },
] as const;
const RESTORE_FILES = 100;
const RESTORE_FILE_BYTES = 8 * 1024;
const TURNS = 200;
const WORKSPACE_FILES = 2_000;
const WORKSPACE_FILE_BYTES = 8 * 1024;
const FILES_PER_TURN = 3;
const HOT_FILES = 40;

const LINE = 'export function parse(input: string): Token[] { return lex(input).filter(Boolean); }\n';

function textOf(bytes: number, seed: number): string {
	const body = LINE.repeat(Math.ceil(bytes / LINE.length)).slice(0, bytes - 16);
	return `// v${String(seed).padStart(12, '0')}\n${body}`;
}

/** A store as a window has it a moment after startup: its shard folders made. */
async function store(dir: string): Promise<FileCheckpointStore> {
	const made = new FileCheckpointStore({ dir, clock: systemClock, log: new RecordingLogger() });
	await made.shardsMade;
	return made;
}

function met(stats: TimingStats, target = TARGET_US): string {
	return stats.median_us <= target && stats.p99_us <= target ? 'met' : 'not met';
}

async function perWrite(root: string, rows: BenchRow[]): Promise<void> {
	// The file system's own floor: creating one small file, as each new blob does.
	const floorDir = join(root, 'floor');
	mkdirSync(floorDir);
	let created = 0;
	const floor = await measureAsync(
		() => join(floorDir, `f${++created}`),
		(path) => {
			writeFileSync(path, LINE);
			return Promise.resolve(1);
		},
		{ warmup: 3, iterations: 300 },
	);
	rows.push({ name: 'floor: creating one small file on this disk (writeFileSync), what each new blob costs at least', iterations: 300, ...floor, target: '—' });
	for (const size of SIZES) {
		const kept = await store(join(root, `write-${size.bytes}`));
		const workspace = join(root, `workspace-${size.bytes}`);
		mkdirSync(workspace);
		const file = join(workspace, 'parser.ts');
		// Untimed after each keep: the tool's write itself (the store keeps the texts meanwhile),
		// then a pause in proportion to what was written (PACE_MS_PER_MB).
		const write = async (changes: readonly FileChange[]) => {
			await fs.writeFile(file, changes[0]?.after ?? '');
			await kept.settled();
			await pause(size.bytes);
		};
		let version = 0;
		// The disk as the keep meets it: the same write, alone, just before each first change.
		const disk = new Float64Array(size.iterations + 3);
		let diskAt = 0;
		// A file's first change in a chat: its text as read (flat), the new one as an edit builds it.
		const first = await measureAsync(
			() => {
				const before = asRead(textOf(size.bytes, ++version));
				return [{ path: file, shown: 'src/parser.ts', before, after: edited(before, version) }] satisfies FileChange[];
			},
			async (changes) => {
				await kept.recorder('chat', 'turn').keep(changes);
				return changes.length;
			},
			{ warmup: 3, iterations: size.iterations },
			{
				before: (changes) => {
					const start = process.hrtime.bigint();
					// A new name each time, as a copy aside gets (renaming over a file makes ext4 write it out at once).
					writeTextSync(`${file}.floor${diskAt}.tmp`, changes[0]?.before ?? '');
					renameSync(`${file}.floor${diskAt}.tmp`, `${file}.floor${diskAt}`);
					disk[diskAt++] = Number(process.hrtime.bigint() - start) / 1000;
					return Promise.resolve();
				},
				after: write,
			},
		);
		rows.push({ name: `keep before a write, ${size.label} file, its first change`, iterations: size.iterations, ...first, target: size.bytes <= 1024 * 1024 ? met(first) : '—' });
		rows.push({ name: `of which the disk: the same write (${size.label}, then renamed) alone, just before each of those keeps`, iterations: size.iterations, ...summarize(disk.slice(3), 0), target: '—' });

		// Every later change of the same file: its before is the last after, already kept (dedup).
		let previous = asRead(textOf(size.bytes, ++version));
		const later = await measureAsync(
			() => {
				const next = edited(previous, ++version);
				const changes: FileChange[] = [{ path: file, shown: 'src/parser.ts', before: previous, after: next }];
				previous = next;
				return changes;
			},
			async (changes) => {
				await kept.recorder('chat', 'turn').keep(changes);
				return changes.length;
			},
			{ warmup: 3, iterations: size.iterations },
			{ after: write },
		);
		rows.push({ name: `keep before a write, ${size.label} file, a later change (its before already kept)`, iterations: size.iterations, ...later, target: size.bytes <= 1024 * 1024 ? met(later) : '—' });
		await kept.settled();
		const hashing = await measureAsync(
			() => edited(asRead(textOf(size.bytes, ++version)), version),
			(text) => Promise.resolve(hashText(text).length),
			{ warmup: 3, iterations: size.iterations },
		);
		rows.push({ name: `of which hashing one ${size.label} text as an edit builds it (SHA-256)`, iterations: size.iterations, ...hashing, target: '—' });
		// Just after the write: what the keep left (both texts hashed, the copy moved into the
		// blobs, the new text's blob written, the settle line), measured alone: a first change.
		const settling = await measureAsync(
			() => {
				const before = asRead(textOf(size.bytes, ++version));
				return [{ path: file, shown: 'src/parser.ts', before, after: edited(before, version) }] satisfies FileChange[];
			},
			async () => {
				await kept.settled();
				return 1;
			},
			{ warmup: 3, iterations: size.iterations },
			{
				before: async (changes) => {
					await kept.recorder('chat', 'turn').keep(changes);
				},
				after: write,
			},
		);
		rows.push({ name: `just after the write, off the request path: a first change's texts hashed and kept (${size.label})`, iterations: size.iterations, ...settling, target: '—' });
	}
}

/**
 * Between measured writes, an untimed pause of this much per MB the size of a file: the bench
 * then writes at most about 40 MB/s. This machine's disk is rate-limited (about 100 MB/s once a
 * burst is spent: the 10 MB rows), and at full speed the bench would measure its own backlog; an
 * agent's writes are a model's turn apart.
 */
const PACE_MS_PER_MB = 100;

function pause(bytes: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, (PACE_MS_PER_MB * bytes) / (1024 * 1024)));
}

/** `text` with one line put in its middle, as Edit builds its new text: the head, the new line, the tail. */
function edited(text: string, version: number): string {
	const at = text.indexOf('\n', text.length >> 1) + 1;
	return `${text.slice(0, at)}// edit ${version}\n${text.slice(at)}`;
}

/** A text as a tool reads it from a file or document: one flat string, not the pieces it was built from. */
function asRead(text: string): string {
	return Buffer.from(text, 'utf8').toString('utf8');
}

async function restore(root: string, rows: BenchRow[]): Promise<void> {
	const kept = await store(join(root, 'restore'));
	const changes: FileChange[] = [];
	for (let file = 0; file < RESTORE_FILES; file++) {
		changes.push({ path: `/ws/src/f${file}.ts`, shown: `src/f${file}.ts`, before: textOf(RESTORE_FILE_BYTES, file), after: textOf(RESTORE_FILE_BYTES, file + 1_000_000) });
	}
	await kept.recorder('chat', 'turn').keep(changes);
	await kept.settled();
	const target = join(root, 'restored');
	mkdirSync(target, { recursive: true });
	const stats = await measureAsync(
		() => kept.chat('chat'),
		async (chat) => {
			let written = 0;
			for (const entry of chat.entries()) {
				const text = typeof entry.before === 'string' ? await chat.text(entry.before) : undefined;
				if (text !== undefined) {
					await fs.writeFile(join(target, `${written}.ts`), text);
					written++;
				}
			}
			return written;
		},
		{ warmup: 2, iterations: 20 },
	);
	rows.push({ name: `restore's store side: read the manifest, read back and write ${RESTORE_FILES} kept texts of ${RESTORE_FILE_BYTES / 1024} KB`, iterations: 20, ...stats, target: '—' });
}

interface Churn {
	readonly storedBytes: number;
	readonly manifestBytes: number;
	readonly changedBytes: number;
	readonly workspaceBytes: number;
	readonly blobs: number;
	readonly boundPass: TimingStats;
}

async function churn(root: string): Promise<Churn> {
	const random = prng(18);
	const dir = join(root, 'churn');
	const kept = await store(dir);
	// The workspace: its files are never read by the store; only the ones the turns change are kept.
	const texts = Array.from({ length: WORKSPACE_FILES }, (_, file) => textOf(WORKSPACE_FILE_BYTES, file));
	const workspaceBytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
	let changedBytes = 0;
	for (let turn = 0; turn < TURNS; turn++) {
		const changes: FileChange[] = [];
		for (let edit = 0; edit < FILES_PER_TURN; edit++) {
			// Mostly the files being worked on, sometimes one elsewhere; now and then a new file.
			const file = random() < 0.8 ? Math.floor(random() * HOT_FILES) : Math.floor(random() * WORKSPACE_FILES);
			const before = texts[file] ?? '';
			const line = Math.floor(random() * 80) * LINE.length + 16;
			const after = `${before.slice(0, line)}// turn ${turn} edit ${edit}\n${before.slice(line)}`;
			texts[file] = after;
			changes.push({ path: `/ws/src/f${file}.ts`, shown: `src/f${file}.ts`, before, after });
			changedBytes += Buffer.byteLength(after);
		}
		if (turn % 20 === 0) {
			changes.push({ path: `/ws/src/new${turn}.ts`, shown: `src/new${turn}.ts`, before: null, after: textOf(2048, turn) });
			changedBytes += 2048;
		}
		await kept.recorder('chat', `turn-${turn}`).keep(changes);
	}
	const blobs = readdirSync(join(dir, 'blobs')).reduce((sum, shard) => sum + readdirSync(join(dir, 'blobs', shard)).length, 0);
	const boundPass = await measureAsync(
		() => undefined,
		async () => (await kept.enforceBound(64 * 1024 * 1024 * 1024)).removedBlobs,
		{ warmup: 1, iterations: 10 },
	);
	return { storedBytes: await storedBytes(kept), manifestBytes: statSync(join(dir, 'chats', 'chat.jsonl')).size, changedBytes, workspaceBytes, blobs, boundPass };
}

async function main(): Promise<void> {
	const root = mkdtempSync(join(tmpdir(), 'aside-bench-checkpoints-'));
	const load = loadavg()[0] ?? 0;
	try {
		const rows: BenchRow[] = [];
		await perWrite(root, rows);
		await restore(root, rows);
		const session = await churn(root);
		rows.push({ name: `the bound's pass over the churn session's store (off the request path: after a turn, at startup)`, iterations: 10, ...session.boundPass, target: '—' });
		const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);
		report({
			case: 'checkpoints',
			title: 'keeping, restoring and storing checkpoints',
			target: `a keep under ${TARGET_US / 1000} ms per write for files up to 1 MB; storage proportional to what changed, not to the workspace`,
			rows,
			notes: [
				'A keep is what applyChanges adds before a tool writes, and it hashes nothing: for a file\'s first change (its text as read from the file, one flat string) a copy of its previous text into the store\'s pending folder (written to a temporary name, then renamed: the "of which the disk" row is that write alone, timed just before each keep; texts are written through one reused buffer, as writeTextSync does, since a fresh 1 MB buffer per write cost this machine up to ten times the write) and one manifest line; for a later change (its previous text is the one the last change wrote, which the store remembers) only the manifest line. Just after the write, on the next turn of the event loop while the editor saves the file, both texts are hashed (SHA-256), the copy moved into the blobs, the new text\'s blob written and the line settled: its own row, which delays neither the write nor the tool\'s result. The new texts are built as Edit builds them (the head of the text, the new line, its tail), so hashing one includes joining them into one string.',
				'Each measured keep is followed, untimed, by the write itself (fs.writeFile of the new text into a real file) and the work just after it. Between iterations the bench pauses, untimed, 100 ms per MB of file size (under 0.1 ms for the 1 KB rows): the disk of this machine (a small virtual machine) is rate-limited, and without the pause it took 10 to 14 ms to write 1 MB to a new file once the bench had written a few hundred MB, against well under 1 ms before. The keep of a first change is such a write and little more (compare the "of which the disk" row), so no keep that puts the previous text on disk before the write can cost less than writing it.',
				'The restore row is the store\'s side only (manifest read, each kept text read back and checked against its hash, then written with fs.writeFile); a restore through the editor\'s documents adds the editor\'s own cost.',
				`Churn session: ${TURNS} turns, ${FILES_PER_TURN} files edited per turn (80 % among ${HOT_FILES} hot files, 20 % anywhere in a workspace of ${WORKSPACE_FILES.toLocaleString('en-US')} files of ${WORKSPACE_FILE_BYTES / 1024} KB, ${mb(session.workspaceBytes)} MB), a new file every 20 turns. Stored: ${mb(session.storedBytes)} MB in ${session.blobs.toLocaleString('en-US')} blobs (${round(session.storedBytes / TURNS / 1024, 1)} KB per turn) plus a ${round(session.manifestBytes / 1024, 1)} KB manifest, for ${mb(session.changedBytes)} MB of changed file texts written by the turns (ratio ${round(session.storedBytes / session.changedBytes, 2)}). The workspace is never scanned; a per-turn copy of it would be ${mb(session.workspaceBytes * TURNS)} MB.`,
				`The machine's load average when the case started: ${round(load, 1)} (other work shares its cores and disk; the floor row shows what creating a file cost then).`,
				'Blobs are whole texts, not deltas: a turn that changes one line of a file stores the whole new text once. That is what makes a restore one read per file; the bound (aside.checkpoints.maxBytes, 512 MiB by default) holds the total.',
			],
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

void main();
