// The window's checkpoint store: `<storage>/checkpoints/` beside the transcripts (the workspace's
// storage folder, shared by the windows on the workspace), held under `aside.checkpoints.maxBytes`
// once at startup and after every turn (src/checkpoints/bound.ts), off the request path.
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { systemClock, systemTimers } from '../base/clock';
import type { Event } from '../base/event';
import { DisposableStore, type IDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { CheckpointBound } from '../checkpoints/bound';
import { FileCheckpointStore } from '../checkpoints/store';
import type { Configuration } from './configuration';

export interface WindowCheckpoints extends IDisposable {
	readonly store: FileCheckpointStore;
	readonly bound: CheckpointBound;
	/** Asks for a pass of the bound after each turn `turnEnded` reports (the agent is made after the store). */
	follow(turnEnded: Event<unknown>): void;
}

/** The store, with its bound's first pass asked for. */
export function windowCheckpoints(context: vscode.ExtensionContext, configuration: Configuration, log: Logger): WindowCheckpoints {
	const storage = context.storageUri ?? context.globalStorageUri;
	const store = new FileCheckpointStore({ dir: join(storage.fsPath, 'checkpoints'), clock: systemClock, log });
	const disposables = new DisposableStore();
	const bound = disposables.add(new CheckpointBound(store, () => configuration.current.checkpointsMaxBytes, systemTimers, log));
	bound.request();
	return {
		store,
		bound,
		follow: (turnEnded) => {
			disposables.add(
				turnEnded(() => {
					bound.request();
				}),
			);
		},
		dispose: () => {
			disposables.dispose();
			// The new texts of the last writes, if their blobs are still waiting.
			store.flush();
		},
	};
}
