// The window's side of Run's terminals and background processes (docs/tools.md, "Where commands
// run"): the host each chat's processes feature is handed (src/terminal/processHost.ts) — the
// terminal launcher with the child-process fallback, output files in the folder Read opens, a chat's
// "Aside" terminal for foreground commands — and **Aside: Stop Background Processes**, which ends
// every chat's. Once the window goes, nothing a chat started keeps running.
import * as vscode from 'vscode';
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

export const STOP_BACKGROUND_PROCESSES_COMMAND = 'aside.run.stopBackgroundProcesses';

export interface WindowProcesses extends IDisposable {
	readonly host: ProcessHost;
}

/** What is said when the command has stopped `count` processes. */
export function stoppedWords(count: number): string {
	return count === 0 ? 'No background process runs.' : `Stopped ${count} background process${count === 1 ? '' : 'es'}.`;
}

export function windowProcesses(settings: { readonly current: AsideSettings }, outputs: KeptOutputs): WindowProcesses {
	const store = new DisposableStore();
	const terminal = (): TerminalSettings => ({ mode: settings.current.runTerminal, integrationTimeoutMs: settings.current.runShellIntegrationTimeoutMs });
	const chats = store.add(new ChatProcessList());
	const host: ProcessHost = {
		launcher: new TerminalLauncher(vscode.window, terminal, new ChildProcessLauncher()),
		outputPath: (stem) => outputs.place(stem),
		file: (path) => new FileOutput(path),
		foreground: () => new ChatTerminalRunner(vscode.window, terminal, new NodeCommandRunner()),
		chats,
	};
	store.add(
		vscode.commands.registerCommand(STOP_BACKGROUND_PROCESSES_COMMAND, async () => {
			const stopped = await chats.stopAll();
			void vscode.window.showInformationMessage(`Aside: ${stoppedWords(stopped.length)}`);
			return stopped.length;
		}),
	);
	return {
		host,
		dispose: () => {
			store.dispose();
		},
	};
}
