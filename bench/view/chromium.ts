// The view case (run by bench/view.bench.mjs): the chat webview in real headless Chromium, with
// the real (production) bundle and a 10,000-row transcript. First paint of the snapshot, one
// streamed delta, expanding a reminders row, the DOM size and the JS heap. Main-thread work is read from Chromium's own counters
// (CDP Performance.getMetrics TaskDuration), which include style, layout and observers, not
// just our script.
import { spawnSync } from 'node:child_process';
import type { CDPSession, Page } from 'playwright-core';
import { ensureTools, repoRoot } from '../../test/harness/tools.mjs';
import type { TranscriptItem } from '../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { agentView, type ChatPage, openChat, startHarness, viewState } from '../../test/webview/page';
import { agentRow, assistant, entry, inChild, reminders, tool, user } from '../../test/webview/items';
import { type BenchRow, percentileOf, prng, report, round } from '../harness';
import { paintWithTransfer, type TransferredPaint } from './transfer';

const ROWS = 10_000;
/** The same deltas under a short chat, to show what the long transcript adds. */
const SHORT_ROWS = 50;
const COLD_RUNS = 5;
const DELTAS = 60;
const EXPANDS = 20;

/** The child still running at the end of the chat: its block is opened and streamed into. */
const LIVE_CHILD = 'root/explore#live';

function transcript(): TranscriptItem[] {
	const random = prng(5);
	const words = 'the build fails because greet is called with a number so change the call or widen the parameter and run the tests'.split(' ');
	const sentence = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)] ?? 'x').join(' ');
	const items: TranscriptItem[] = [];
	/** A child's own rows: its ◇ reminders, its prompt, two tool calls and its answer. */
	const childRows = (path: string, turn: number): TranscriptItem[] => [
		inChild(path, reminders(`${path}-r${turn}`, [entry('agent.max-turns', 'step budget', 'You have 2 steps left: wrap up.')])),
		inChild(path, user(`${path}-u${turn}`, sentence(12))),
		inChild(path, tool(`${path}-t${turn}`, { result: sentence(40) })),
		inChild(path, tool(`${path}-t2${turn}`, { name: 'Grep', result: sentence(20) })),
		inChild(path, assistant(`${path}-a${turn}`, sentence(30))),
	];
	for (let turn = 0; items.length < ROWS - 2; turn++) {
		items.push(reminders(`r${turn}`, [entry('session.date', 'date', "Today's date is 2026-11-30 (Monday)."), entry('files.edited', 'edited files', `src/file${turn}.ts changed outside Aside's tools:\n@@ -1 +1 @@\n-a\n+b`)]));
		items.push(user(`u${turn}`, sentence(5 + Math.floor(random() * 30))));
		if (turn % 10 === 5) {
			// Every tenth turn runs a child agent; every fiftieth, that child runs one of its own.
			const path = `root/general#${turn}`;
			items.push(agentRow(path, { description: sentence(6), steps: 3, status: 'done', result: sentence(30) }), ...childRows(path, turn).slice(0, -1));
			if (turn % 50 === 25) {
				const nested = `${path}/explore#${turn}`;
				items.push(agentRow(nested, { description: sentence(5), steps: 2, status: 'done', result: sentence(10) }), ...childRows(nested, turn));
			}
			items.push(...childRows(path, turn).slice(-1));
		} else {
			items.push(tool(`t${turn}`, { result: sentence(40) }));
		}
		items.push(reminders(`m${turn}`, [entry('edit.diagnostics', 'diagnostics', `New problems after your edit:\n- error TS2322 ${sentence(8)}`)], 'mid-turn'));
		items.push(assistant(`a${turn}`, `${sentence(20)}\n\n- **${sentence(3)}**\n- \`${sentence(2)}\`\n\n\`\`\`ts\nconst x: number = ${turn};\n\`\`\``));
	}
	return [...items.slice(0, ROWS - 2), agentRow(LIVE_CHILD, { description: 'Look at the tests', steps: 1 }), inChild(LIVE_CHILD, user('live-u', 'Look at the tests'))];
}

async function taskMs(cdp: CDPSession): Promise<number> {
	const { metrics } = await cdp.send('Performance.getMetrics');
	return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0) * 1000;
}

async function heapMb(cdp: CDPSession): Promise<number> {
	await cdp.send('HeapProfiler.collectGarbage');
	const { metrics } = await cdp.send('Performance.getMetrics');
	return (metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;
}

/** Two frames, so everything the change scheduled (rAF, layout, ResizeObserver) has run. */
function settle(page: Page): Promise<void> {
	return page.evaluate(() => new Promise<void>((resolve) => {
		requestAnimationFrame(() => requestAnimationFrame(() => {
			setTimeout(resolve, 0);
		}));
	}));
}

interface DeltaTimes {
	/** Main-thread busy time of the whole frame (CDP TaskDuration), measurement overhead subtracted. */
	readonly frame: number[];
	/** What applying it takes: the message handler, the frame's flush, and the layout it leaves. */
	readonly apply: number[];
}

/** Streams DELTAS text deltas into a growing Markdown answer (the root's, or the running child's) and times each two ways. */
async function streamDeltas(chat: ChatPage, cdp: CDPSession, overhead: number, child?: string, from = 1): Promise<DeltaTimes> {
	let seq = from;
	const requestId = child === undefined ? 'req' : 'child-req';
	const agent = child === undefined
		? agentView({ status: { state: 'running', detail: 'Streaming…' }, streaming: { requestId } })
		: agentView({ status: { state: 'running', detail: 'Running Agent…' }, children: [{ path: child, detail: 'Answering…', streaming: { requestId } }] });
	await chat.host({ type: 'agent.changed', seq: seq++, agent });
	const times: DeltaTimes = { frame: [], apply: [] };
	for (let delta = 0; delta < DELTAS; delta++) {
		// Every tenth delta closes a paragraph and adds a code block.
		const text = delta % 10 === 9 ? '\n\n```ts\nconst y = 1;\n```\n\n' : `word${delta} and **more** text `;
		const start = await taskMs(cdp);
		const apply = await chat.page.evaluate(
			(data) =>
				new Promise<number>((resolve) => {
					const begin = performance.now();
					window.dispatchEvent(new MessageEvent('message', { data }));
					const handled = performance.now() - begin;
					// Registered after the view's own frame callback, so it runs right after the flush.
					requestAnimationFrame((frameStart) => {
						const flushed = performance.now();
						const layout = document.body.offsetHeight >= 0 ? performance.now() - flushed : 0;
						resolve(handled + (flushed - frameStart) + layout);
					});
				}),
			{ type: 'text.streamed', seq: seq++, requestId, text },
		);
		await settle(chat.page);
		times.apply.push(apply);
		times.frame.push(Math.max(0, (await taskMs(cdp)) - start - overhead));
	}
	return times;
}

const median = (values: readonly number[]): number => percentileOf(values, 0.5);
const p90 = (values: readonly number[]): number => percentileOf(values, 0.9);

async function main(): Promise<void> {
	ensureTools();
	const build = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: repoRoot, stdio: ['ignore', 2, 2] });
	if (build.status !== 0) {
		throw new Error('the webview build failed');
	}
	const items = transcript();
	const snapshot = { type: 'snapshot', seq: 0, protocol: PROTOCOL_VERSION, state: viewState({ session: { id: 'bench', title: 'A long chat', items } }) };
	const harness = await startHarness();
	const rows: BenchRow[] = [];
	const carried: TransferredPaint[] = [];
	try {
		// First paint, cold: a fresh page each time, the snapshot handed over the way VS Code does.
		const paints: number[] = [];
		const paintTasks: number[] = [];
		let nodes = 0;
		let listRows = 0;
		let heap = 0;
		let baseline = 0;
		for (let run = 0; run < COLD_RUNS; run++) {
			const chat = await openChat(harness);
			await chat.page.goto(harness.origin);
			await chat.waitForPosted('ready');
			await chat.page.evaluate((data) => {
				(window as unknown as { __snapshot: unknown }).__snapshot = data;
			}, snapshot);
			const cdp = await chat.page.context().newCDPSession(chat.page);
			await cdp.send('Performance.enable');
			const before = await taskMs(cdp);
			const wall = await chat.page.evaluate(() => new Promise<number>((resolve) => {
				const start = performance.now();
				window.dispatchEvent(new MessageEvent('message', { data: (window as unknown as { __snapshot: unknown }).__snapshot }));
				requestAnimationFrame(() => {
					// Reading a layout property runs the first frame's style and layout now.
					resolve(document.body.offsetHeight >= 0 ? performance.now() - start : Number.NaN);
				});
			}));
			await settle(chat.page);
			paintTasks.push((await taskMs(cdp)) - before);
			paints.push(wall);
			if (run === COLD_RUNS - 1) {
				await chat.page.evaluate(() => {
					delete (window as unknown as { __snapshot?: unknown }).__snapshot;
				});
				nodes = await chat.page.evaluate(() => document.getElementsByTagName('*').length);
				listRows = await chat.page.locator('.transcript > li').count();
				heap = await heapMb(cdp);

				// What measuring costs by itself: an evaluate that does nothing, and the two frames.
				const idle: number[] = [];
				for (let i = 0; i < 20; i++) {
					const start = await taskMs(cdp);
					await chat.page.evaluate(() => 0);
					await settle(chat.page);
					idle.push((await taskMs(cdp)) - start);
				}
				baseline = median(idle);
				rows.push({ name: 'measurement overhead (no-op evaluate + two frames), subtracted below', iterations: idle.length, median_ms: round(baseline), p90_ms: round(p90(idle)), max_ms: round(Math.max(...idle)) });

				// One streamed delta, with the 10,000 rows loaded and the view pinned to the end.
				const deltas = await streamDeltas(chat, cdp, baseline);
				rows.push(
					{ name: 'apply one streamed delta (10,000 rows loaded): handler + flush + layout', iterations: DELTAS, median_ms: round(median(deltas.apply)), p90_ms: round(p90(deltas.apply)), max_ms: round(Math.max(...deltas.apply)), target_ms: 4, met: median(deltas.apply) < 4 },
					{ name: '… the whole frame, paint included (TaskDuration)', iterations: DELTAS, median_ms: round(median(deltas.frame)), p90_ms: round(p90(deltas.frame)), max_ms: round(Math.max(...deltas.frame)) },
				);

				// Expanding a reminders row (and collapsing it again, untimed).
				const expandTasks: number[] = [];
				for (let expand = 0; expand < EXPANDS; expand++) {
					const toggle = chat.page.locator('.transcript li[data-kind="reminders"] button.reminders-toggle').first();
					await settle(chat.page);
					const start = await taskMs(cdp);
					await toggle.evaluate((button) => {
						(button as HTMLButtonElement).click();
					});
					await settle(chat.page);
					expandTasks.push(Math.max(0, (await taskMs(cdp)) - start - baseline));
					await toggle.evaluate((button) => {
						(button as HTMLButtonElement).click();
					});
				}
				rows.push({ name: 'expand a reminders row (10,000 rows loaded)', iterations: EXPANDS, median_ms: round(median(expandTasks)), p90_ms: round(p90(expandTasks)), max_ms: round(Math.max(...expandTasks)), target_ms: 16, met: median(expandTasks) < 16 });

				// Expanding a child agent's row (its rows rendered at its first opening, then kept).
				const childTasks: number[] = [];
				for (let expand = 0; expand < EXPANDS; expand++) {
					const toggle = chat.page.locator('.transcript > li[data-kind="agent"] > button.agent-toggle').first();
					await settle(chat.page);
					const start = await taskMs(cdp);
					await toggle.evaluate((button) => {
						(button as HTMLButtonElement).click();
					});
					await settle(chat.page);
					childTasks.push(Math.max(0, (await taskMs(cdp)) - start - baseline));
					await toggle.evaluate((button) => {
						(button as HTMLButtonElement).click();
					});
				}
				rows.push({ name: "expand a child agent's row (10,000 rows loaded)", iterations: EXPANDS, median_ms: round(median(childTasks)), p90_ms: round(p90(childTasks)), max_ms: round(Math.max(...childTasks)), target_ms: 16, met: median(childTasks) < 16 });

				// Streaming into the running child at the end, its block open, the view pinned to the end.
				await chat.page.locator(`li[data-path="${LIVE_CHILD}"] > button.agent-toggle`).evaluate((button) => {
					(button as HTMLButtonElement).click();
				});
				await chat.page.locator('.scroller').evaluate((node) => {
					node.scrollTop = node.scrollHeight;
				});
				await settle(chat.page);
				const inChildDeltas = await streamDeltas(chat, cdp, baseline, LIVE_CHILD, DELTAS + 2);
				rows.push(
					{ name: 'apply one streamed delta inside an expanded child (10,000 rows loaded)', iterations: DELTAS, median_ms: round(median(inChildDeltas.apply)), p90_ms: round(p90(inChildDeltas.apply)), max_ms: round(Math.max(...inChildDeltas.apply)), target_ms: 4, met: median(inChildDeltas.apply) < 4 },
					{ name: '… the whole frame, paint included (TaskDuration)', iterations: DELTAS, median_ms: round(median(inChildDeltas.frame)), p90_ms: round(p90(inChildDeltas.frame)), max_ms: round(Math.max(...inChildDeltas.frame)) },
				);
				const streamedInChild = await chat.page.locator(`li[data-path="${LIVE_CHILD}"] .agent-live [data-kind="streaming"]`).count();
				if (streamedInChild !== 1) {
					throw new Error('the child\'s stream was not shown inside its block');
				}
			}
			await chat.page.close();
		}
		// First paint again, the snapshot carried from the host as VS Code carries it (transfer.ts).
		for (let run = 0; run < COLD_RUNS; run++) {
			const chat = await openChat(harness);
			await chat.page.goto(harness.origin);
			await chat.waitForPosted('ready');
			carried.push(await paintWithTransfer(chat, snapshot));
			await chat.page.close();
		}
		const carriedTotal = carried.map((paint) => paint.serializeMs + paint.pageMs);
		// The same deltas under a 50-row chat: what the long transcript adds to each.
		const short = await openChat(harness);
		await short.connect(viewState({ session: { id: 'short', title: 'A short chat', items: items.slice(0, SHORT_ROWS) } }));
		const shortCdp = await short.page.context().newCDPSession(short.page);
		await shortCdp.send('Performance.enable');
		const shortDeltas = await streamDeltas(short, shortCdp, baseline);
		rows.push(
			{ name: `apply one streamed delta (${SHORT_ROWS} rows loaded), for comparison`, iterations: DELTAS, median_ms: round(median(shortDeltas.apply)), p90_ms: round(p90(shortDeltas.apply)), max_ms: round(Math.max(...shortDeltas.apply)) },
			{ name: '… the whole frame, paint included (TaskDuration)', iterations: DELTAS, median_ms: round(median(shortDeltas.frame)), p90_ms: round(p90(shortDeltas.frame)), max_ms: round(Math.max(...shortDeltas.frame)) },
		);
		await short.page.close();
		rows.unshift(
			{ name: `first paint of a ${ROWS.toLocaleString('en-US')}-row snapshot (cold page), wall`, iterations: COLD_RUNS, median_ms: round(median(paints)), p90_ms: round(p90(paints)), max_ms: round(Math.max(...paints)), target_ms: 300, met: median(paints) < 300 },
			{ name: '… of which main-thread task time', iterations: COLD_RUNS, median_ms: round(median(paintTasks)), p90_ms: round(p90(paintTasks)), max_ms: round(Math.max(...paintTasks)), target_ms: 300, met: median(paintTasks) < 300 },
			{ name: `first paint with the snapshot carried from the host (JSON out, two structured clones in), wall`, iterations: COLD_RUNS, median_ms: round(median(carriedTotal)), p90_ms: round(p90(carriedTotal)), max_ms: round(Math.max(...carriedTotal)), target_ms: 300, met: median(carriedTotal) < 300 },
			{ name: '… of which JSON.stringify on the host', iterations: COLD_RUNS, median_ms: round(median(carried.map((paint) => paint.serializeMs))), p90_ms: round(p90(carried.map((paint) => paint.serializeMs))), max_ms: round(Math.max(...carried.map((paint) => paint.serializeMs))) },
		);
		rows.push({ name: 'DOM after the snapshot', iterations: 1, elements: nodes, transcript_rows_in_dom: listRows });
		rows.push({ name: 'JS heap after the snapshot (after GC)', iterations: 1, heap_mb: round(heap, 1), target_mb: 50, met: heap < 50 });
	} finally {
		await harness.close();
	}
	report({
		case: 'view',
		title: 'The chat view: a 10,000-row transcript in Chromium',
		target: 'first paint under 300 ms, a streamed delta under 4 ms (inside an expanded child too), expanding a reminders or child agent row under 16 ms, JS heap under 50 MB',
		rows,
		notes: [
			'The real production webview bundle in headless Debian Chromium (software rendering, --disable-gpu), served with the extension\'s own HTML and CSP; the snapshot is 10,000 rows: per turn two reminders rows, a user message, a tool call and a Markdown answer; every tenth turn a child agent instead of the tool call (its header and five rows of its own: reminders, prompt, two tool calls, answer), every fiftieth with a child of its own nested inside; the last row is a child still running.',
			'A child\'s row is one row of the virtual list: its own rows are built inside it when it is first opened, and its height changes like any row\'s. "Expand a child agent\'s row" opens the first one (five rows and a nested child\'s row, then the same element reopened); "inside an expanded child" streams into the running child at the end, its block open, the view pinned to the end.',
			`First paint (wall): from handing the snapshot to the page's message listener (validation included) to the end of style and layout of the first frame; measured on a fresh page each run. "Carried from the host" adds what VS Code does to bring the snapshot (${((carried[0]?.bytes ?? 0) / 1e6).toFixed(1)} MB as JSON) from the extension host to the page: JSON.stringify in Node (its RPC to the window is JSON), then in the page JSON.parse, a MessageChannel hop and a window.postMessage (window to webview frame to page: two structured clones) before the view's own listener; only the copy of the bytes between processes is not timed.`,
			'Task time: Chromium\'s own main-thread busy time (CDP TaskDuration) between before an action and two frames after it: script, style, layout, ResizeObserver; idle waiting is not counted.',
			'A delta: one text.streamed message appended to a growing Markdown answer under the 10,000 rows (every tenth delta adds a code block), with the view pinned to the end. "Apply" is timed in the page: the message handler (validation included), then the view\'s frame callback that re-renders the Markdown and keeps the view at the end, then the layout it leaves; "the whole frame" adds style, paint and compositing on software rendering, as Chromium counts its main-thread tasks.',
			'The same deltas under a 50-row chat cost the same: the 10,000 rows add nothing to streaming, because only the rows on screen are in the page.',
		],
	});
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
