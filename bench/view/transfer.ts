// First paint with the snapshot carried as VS Code carries it from the extension host: the host
// serializes the message (its RPC to the window is JSON), the window decodes it and posts it to
// the webview's frame, which posts it on to the page (two structured clones). Here: JSON.stringify
// in Node, then in the page JSON.parse, a MessageChannel hop and a window.postMessage (the two
// clones), the view's own message listener, and the first frame's style and layout.
import type { ChatPage } from '../../test/webview/page';

export interface TransferredPaint {
	/** JSON.stringify of the snapshot, in Node (the extension host's side). */
	readonly serializeMs: number;
	/** In the page: decode, two clones, the view's handler, the first frame. */
	readonly pageMs: number;
	/** The snapshot's size as JSON. */
	readonly bytes: number;
}

/** One cold first paint on `chat` (a fresh page, ready), the snapshot carried across. */
export async function paintWithTransfer(chat: ChatPage, snapshot: unknown): Promise<TransferredPaint> {
	const started = performance.now();
	const json = JSON.stringify(snapshot);
	const serializeMs = performance.now() - started;
	// Moving the bytes between processes is not timed: VS Code's IPC copies them, which is about
	// what handing the text to the page over the DevTools pipe does here.
	await chat.page.evaluate((text) => {
		(window as unknown as { __json: string }).__json = text;
	}, json);
	const pageMs = await chat.page.evaluate(
		() =>
			new Promise<number>((resolve) => {
				const holder = window as unknown as { __json?: string };
				const text = holder.__json ?? '';
				delete holder.__json;
				const start = performance.now();
				const channel = new MessageChannel();
				// Added after the view's listener, so it runs once the view has handled the snapshot.
				window.addEventListener(
					'message',
					() => {
						requestAnimationFrame(() => {
							// Reading a layout property runs the first frame's style and layout now.
							resolve(document.body.offsetHeight >= 0 ? performance.now() - start : Number.NaN);
						});
					},
					{ once: true },
				);
				channel.port2.onmessage = (event: MessageEvent) => {
					window.postMessage(event.data, '*');
				};
				channel.port1.postMessage(JSON.parse(text));
			}),
	);
	return { serializeMs, pageMs, bytes: Buffer.byteLength(json) };
}
