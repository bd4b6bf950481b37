// Runs the benchmarks and writes their numbers into docs/PERFORMANCE.md.
//
//   node bench/run.mjs          every bench/*.bench.ts and bench/*.bench.mjs   (npm run bench)
//   node bench/run.mjs wait     just bench/wait.bench.ts
//
// Each .ts case is bundled with esbuild like the unit tests and run alone in a fresh
// `node --expose-gc`, so one case's JIT and heap never colour another's; a .mjs case (one that
// needs more than Node: bench/diagnostics.bench.mjs drives VS Code) is run as it is. A case
// prints one line of JSON (BenchResult in bench/harness.ts) as its last stdout line; this
// prints it as a table and replaces the case's section of docs/PERFORMANCE.md, between
// `<!-- bench:<case> -->` and `<!-- /bench:<case> -->`, leaving everything else in the file as
// it was. Nothing here judges a timing: a case that crashes fails the run, a slow one does not.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(repoRoot, 'bench');
const outdir = join(repoRoot, 'out', 'bench');
const docPath = join(repoRoot, 'docs', 'PERFORMANCE.md');
const SUFFIX = '.bench.ts';
const SCRIPT_SUFFIX = '.bench.mjs';

const INTRO = `# Performance

The numbers below come from \`npm run bench\` (\`bench/run.mjs\`) on the machine named in each
section; never from timed test assertions, which the tests do not make. Each case is a
\`bench/<case>.bench.ts\` file run alone in a fresh \`node --expose-gc\` (or a
\`bench/<case>.bench.mjs\` script, for a case that needs VS Code or Chromium); the sections between the
\`bench:\` markers are rewritten by every run of their case, and everything outside them is
written by hand. \`node bench/run.mjs <case>\` runs one case.

Times are per call, in microseconds (µs; 1 ms = 1,000 µs): the median, the 99th percentile,
the slowest call and the mean. "heap Δ" is \`heapUsed\` after a forced GC at the end of the
measured loop minus the same before it.
`;

const scripts = readdirSync(benchDir)
	.filter((name) => name.endsWith(SCRIPT_SUFFIX))
	.map((name) => name.slice(0, -SCRIPT_SUFFIX.length));
const available = readdirSync(benchDir)
	.filter((name) => name.endsWith(SUFFIX))
	.map((name) => name.slice(0, -SUFFIX.length))
	.concat(scripts)
	.sort();
const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length) {
	console.error(`Unknown case(s): ${unknown.join(', ')}. Cases: ${available.join(', ')}.`);
	process.exit(2);
}
const cases = requested.length ? requested : available;

// The unit tests' options (test/harness/buildTests.mjs): one bundle per case, packages external.
rmSync(outdir, { recursive: true, force: true });
const bundled = cases.filter((name) => !scripts.includes(name));
if (bundled.length) {
	await esbuild.build({
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		packages: 'external',
		sourcemap: 'inline',
		logLevel: 'warning',
		absWorkingDir: repoRoot,
		entryPoints: bundled.map((name) => join('bench', `${name}${SUFFIX}`)),
		outdir,
		outbase: 'bench',
	});
}

const machine = {
	cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
	cores: cpus().length,
	node: process.version,
	os: `${platform()} ${release()}`,
};

/** Runs one case; returns its parsed result, or null when it crashed or printed no result. */
function runCase(name) {
	const file = scripts.includes(name) ? join(benchDir, `${name}${SCRIPT_SUFFIX}`) : join(outdir, `${name}.bench.js`);
	console.log(`\n▶ ${name}`);
	const started = Date.now();
	// stderr is the case's own (progress, a crash's stack); stdout carries the result line.
	const result = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', file], {
		cwd: repoRoot,
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	const lines = (result.stdout ?? '').split('\n').filter((line) => line.trim() !== '');
	// Anything a case printed before its result is shown, not lost.
	for (const line of lines.slice(0, -1)) {
		console.log(`  ${line}`);
	}
	if (result.status !== 0) {
		console.error(`✗ ${name} crashed (${result.signal ?? `exit ${result.status}`}).`);
		return null;
	}
	try {
		const parsed = JSON.parse(lines.at(-1) ?? '');
		if (parsed.case !== name || !Array.isArray(parsed.rows)) {
			throw new Error(`expected { case: "${name}", rows: [...] }`);
		}
		parsed.seconds = Math.round((Date.now() - started) / 100) / 10;
		return parsed;
	} catch (error) {
		console.error(`✗ ${name} printed no result line: ${error.message}`);
		return null;
	}
}

// Column headers and units come from the key's suffix: `median_us` is "median (µs)".
const UNITS = { _us: 'µs', _ms: 'ms', _kb: 'KB', _pct: '%' };
const LABELS = { name: '', iterations: 'iterations', heap_delta: 'heap Δ' };

function columnsOf(rows) {
	const columns = [];
	for (const row of rows) {
		for (const key of Object.keys(row)) {
			if (!columns.includes(key)) {
				columns.push(key);
			}
		}
	}
	return columns;
}

function header(key) {
	const suffix = Object.keys(UNITS).find((end) => key.endsWith(end));
	const base = suffix ? key.slice(0, -suffix.length) : key;
	const label = LABELS[base] ?? base.replaceAll('_', ' ');
	return suffix ? `${label} (${UNITS[suffix]})` : label;
}

function cell(value) {
	if (typeof value === 'number') {
		return value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : 2 });
	}
	if (typeof value === 'boolean') {
		return value ? 'yes' : 'no';
	}
	return value === undefined ? '' : String(value);
}

function tableRows(rows) {
	const columns = columnsOf(rows);
	return { headers: columns.map(header), body: rows.map((row) => columns.map((key) => cell(row[key]))) };
}

function printTable(result) {
	const { headers, body } = tableRows(result.rows);
	const widths = headers.map((text, index) => Math.max(text.length, ...body.map((row) => row[index].length)));
	// Names left, numbers right, as a reader scans them.
	const line = (cells) => cells.map((text, index) => (index === 0 ? text.padEnd(widths[index]) : text.padStart(widths[index]))).join('  ');
	console.log(`\n${result.title} (${result.case})${result.target ? `\ntarget: ${result.target}` : ''}\n`);
	console.log(line(headers));
	console.log(widths.map((width) => '─'.repeat(width)).join('  '));
	for (const row of body) {
		console.log(line(row));
	}
	for (const note of result.notes ?? []) {
		console.log(`  · ${note}`);
	}
}

function markdownSection(result, date) {
	const { headers, body } = tableRows(result.rows);
	const row = (cells) => `| ${cells.join(' | ')} |`;
	const align = headers.map((_, index) => (index === 0 ? '---' : '---:'));
	const iterations = [...new Set(result.rows.map((r) => r.iterations))].map((n) => cell(n)).join(' / ');
	return [
		`## ${result.title} (\`${result.case}\`)`,
		'',
		`Generated by \`node bench/run.mjs ${result.case}\` on ${date}: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.os}. ${iterations} measured iterations per row; the run took ${result.seconds} s.`,
		'',
		...(result.target ? [`Target: ${result.target}.`, ''] : []),
		row(headers),
		row(align),
		...body.map(row),
		'',
		...(result.notes ?? []).map((note) => `- ${note}`),
	].join('\n');
}

/** Replaces each case's section between its markers, appending the markers when missing. */
function updateDoc(results, date) {
	let doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : INTRO;
	for (const result of results) {
		const open = `<!-- bench:${result.case} -->`;
		const close = `<!-- /bench:${result.case} -->`;
		const section = `${open}\n${markdownSection(result, date)}\n${close}`;
		const start = doc.indexOf(open);
		const end = doc.indexOf(close, start);
		if (start !== -1 && end !== -1) {
			doc = doc.slice(0, start) + section + doc.slice(end + close.length);
		} else {
			doc = `${doc.trimEnd()}\n\n${section}\n`;
		}
	}
	writeFileSync(docPath, doc);
}

const results = [];
const crashed = [];
for (const name of cases) {
	const result = runCase(name);
	if (result) {
		printTable(result);
		results.push(result);
	} else {
		crashed.push(name);
	}
}
if (results.length) {
	updateDoc(results, new Date().toISOString().slice(0, 10));
	console.log(`\nWrote ${results.map((r) => r.case).join(', ')} into docs/PERFORMANCE.md.`);
}
if (crashed.length) {
	console.error(`\n${crashed.length} case(s) crashed: ${crashed.join(', ')}.`);
	process.exit(1);
}
