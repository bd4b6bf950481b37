// The window's side of Run's terminals and background processes (docs/tools.md, "Where commands
// run"): the host each chat's processes feature is handed (src/terminal/processHost.ts) — the
// terminal launcher with the child-process fallback, output files in the folder Read opens, a chat's
// "Aside" terminal for foreground commands — and the list of every chat's processes, which
// **Aside: Stop Background Processes** ends (processCommands.ts). Once the window goes, nothing a
// chat started keeps running.
import * as vscode from 'vscode';
import type { Event } from '../../base/event';
import { DisposableStore, type IDisposable } from '../../base/lifecycle';
import { ChildProcessLauncher } from '../../terminal/childLauncher';
import { FileOutput } from '../../terminal/outputFile';
import { ChatProcessList, type ProcessHost } from '../../terminal/processHost';
import type { KeptOutputs } from '../../tools/keptOutputs';
import { NodeCommandRunner } from '../../tools/nodeRunner';
import type { AsideSettings } from '../settings';
import type { TerminalSettings } from './shellIntegration';
import { TerminalLauncher } from './terminalLauncher';
import { ChatTerminalRunner } from './terminalRunner';

export interface WindowProcesses extends IDisposable {
	readonly host: ProcessHost;
}

/** `onDidDeleteChat`: a chat was deleted — its processes end with it. */
export function windowProcesses(settings: { readonly current: AsideSettings }, outputs: KeptOutputs, onDidDeleteChat: Event<string>): WindowProcesses {
	const store = new DisposableStore();
	const terminal = (): TerminalSettings => ({ mode: settings.current.runTerminal, integrationTimeoutMs: settings.current.runShellIntegrationTimeoutMs });
	const chats = store.add(new ChatProcessList());
	store.add(onDidDeleteChat((chatId) => {
		chats.endChat(chatId);
	}));
	const host: ProcessHost = {
		launcher: new TerminalLauncher(vscode.window, terminal, new ChildProcessLauncher()),
		outputPath: (stem) => outputs.place(stem),
		file: (path) => new FileOutput(path),
		foreground: () => new ChatTerminalRunner(vscode.window, terminal, new NodeCommandRunner()),
		chats,
		wakeOnExit: () => settings.current.runWakeOnExit,
	};
	return {
		host,
		dispose: () => {
			store.dispose();
		},
	};
}
