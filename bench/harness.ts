// What every bench/*.bench.ts shares: the timing loops, their summary, and the one JSON line the
// runner (bench/run.mjs) reads from stdout. Benchmarks measure and print; they never assert a
// timing (a slow machine must not fail anything), though a row may say whether a target was met.

/** One row of a case's table. Columns are the row's keys, in order; see docs/PERFORMANCE.md. */
export type BenchRow = { readonly name: string; readonly iterations: number } & Readonly<Record<string, string | number | boolean>>;

/** What a bench file prints, as one line of JSON, when it is done. */
export interface BenchResult {
	/** The file's name without `.bench.ts`: `wait` for wait.bench.ts. */
	readonly case: string;
	readonly title: string;
	/** The documented target, in words, when there is one. */
	readonly target?: string;
	readonly rows: readonly BenchRow[];
	/** What the rows measure and how to read them, one sentence each. */
	readonly notes: readonly string[];
}

export interface TimingStats {
	readonly median_us: number;
	readonly p99_us: number;
	readonly max_us: number;
	readonly mean_us: number;
	/** heapUsed after a full GC at the end, minus the same before the measured loop, in KB. */
	readonly heap_delta_kb: number;
}

export interface LoopOptions {
	readonly warmup: number;
	readonly iterations: number;
}

/** Deterministic "random" (mulberry32), so every run builds the same data. */
export function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Rounds to at most `digits` decimals, so the JSON stays readable. */
export function round(value: number, digits = 2): number {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
}

/** Nearest-rank percentile of ascending samples (`p` in 0..1). */
function percentile(sorted: ArrayLike<number>, p: number): number {
	const rank = Math.max(1, Math.ceil(p * sorted.length));
	return sorted[rank - 1] ?? Number.NaN;
}

/** Nearest-rank percentile of samples in any order (`p` in 0..1): 0.5 is the median. */
export function percentileOf(values: readonly number[], p: number): number {
	return percentile([...values].sort((a, b) => a - b), p);
}

/** The stats of timings in µs (for a loop that times itself). */
export function summarize(samples: Float64Array, heapDeltaBytes: number): TimingStats {
	const sorted = samples.slice().sort();
	let sum = 0;
	for (const sample of samples) {
		sum += sample;
	}
	return {
		median_us: round(percentile(sorted, 0.5)),
		p99_us: round(percentile(sorted, 0.99)),
		max_us: round(sorted[sorted.length - 1] ?? Number.NaN),
		mean_us: round(sum / samples.length),
		heap_delta_kb: round(heapDeltaBytes / 1024, 1),
	};
}

/** heapUsed after a full collection. Needs `node --expose-gc`, which the runner passes. */
export function heapUsedAfterGc(): number {
	if (!globalThis.gc) {
		throw new Error('Run benchmarks through `npm run bench` (node --expose-gc).');
	}
	globalThis.gc();
	globalThis.gc();
	return process.memoryUsage().heapUsed;
}

// Results are folded in here so no call's work can be optimised away, and read once at the end.
let sink = 0;

/** Keeps `value` observable; returns the running checksum (print it nowhere, it is meaningless). */
export function consume(value: number): number {
	sink = (sink + value) | 0;
	return sink;
}

/**
 * Times `run` once per iteration with process.hrtime.bigint(), after `warmup` untimed calls.
 * `run` returns a number (any: a length, a count) that is consumed, so its result is used.
 */
export function measure(run: () => number, options: LoopOptions): TimingStats {
	for (let index = 0; index < options.warmup; index++) {
		consume(run());
	}
	const samples = new Float64Array(options.iterations);
	const heapBefore = heapUsedAfterGc();
	for (let index = 0; index < options.iterations; index++) {
		const start = process.hrtime.bigint();
		const result = run();
		samples[index] = Number(process.hrtime.bigint() - start) / 1000;
		consume(result);
	}
	return summarize(samples, heapUsedAfterGc() - heapBefore);
}

/**
 * Like `measure`, for work that needs fresh state per iteration or is async: `prepare` runs
 * untimed before each timed `run(prepared)`, which is awaited. `untimed.before` and
 * `untimed.after`, when given, are awaited just before and after it, also untimed (what comes
 * before and after the measured step in real use).
 */
export async function measureAsync<T>(
	prepare: () => T,
	run: (prepared: T) => Promise<number>,
	options: LoopOptions,
	untimed: { readonly before?: (prepared: T) => Promise<void>; readonly after?: (prepared: T) => Promise<void> } = {},
): Promise<TimingStats> {
	for (let index = 0; index < options.warmup; index++) {
		const prepared = prepare();
		await untimed.before?.(prepared);
		consume(await run(prepared));
		await untimed.after?.(prepared);
	}
	const samples = new Float64Array(options.iterations);
	const heapBefore = heapUsedAfterGc();
	for (let index = 0; index < options.iterations; index++) {
		const prepared = prepare();
		await untimed.before?.(prepared);
		const start = process.hrtime.bigint();
		const result = await run(prepared);
		samples[index] = Number(process.hrtime.bigint() - start) / 1000;
		consume(result);
		await untimed.after?.(prepared);
	}
	return summarize(samples, heapUsedAfterGc() - heapBefore);
}

/** The cost of the timing itself (two hrtime.bigint() calls and a subtraction), in µs. */
export function timerOverheadUs(): number {
	return measure(() => 0, { warmup: 10_000, iterations: 100_000 }).median_us;
}

/** Prints the result as the one JSON line the runner reads; call it last. */
export function report(result: BenchResult): void {
	process.stdout.write(`${JSON.stringify(result)}\n`);
}
