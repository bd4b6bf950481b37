// The observers' ports in VS Code: the workspace's file system and file events, its diagnostics
// and documents, the observers' settings read at every edit and WAIT, and the log. Each session's
// observers are made from these (src/agent/currentObservers.ts).
import * as vscode from 'vscode';
import { systemClock, systemTimers } from '../base/clock';
import { DisposableStore, type IDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ObserverPorts } from '../agent/currentObservers';
import { displayPath } from '../tools/paths';
import type { WorkspaceFs } from '../tools/tool';
import type { Configuration } from './configuration';
import { VsCodeDiagnosticsSource } from './diagnosticsSource';
import { vscodeDocuments } from './documents';
import { VsCodeFileEvents } from './fileEvents';
import { malformedInstructionsNotice } from './instructions';
import { diagnosticsLimitsOf, editedFilesLimitsOf } from './observerSettings';
import { workspaceRoots } from './toolHost';

export interface ObserverHost {
	readonly configuration: Configuration;
	readonly fs: WorkspaceFs;
	/** Aside's own storage: its transcripts change every turn, and are never "edited files". */
	readonly storageFolders: readonly string[];
	readonly log: Logger;
}

/** The ports, with the watchers and the diagnostics source they hold (disposed with them). */
export function vscodeObserverPorts({ configuration, fs, storageFolders, log }: ObserverHost): ObserverPorts & IDisposable {
	const store = new DisposableStore();
	const settings = () => configuration.current;
	return {
		fs,
		fileEvents: store.add(new VsCodeFileEvents()),
		roots: workspaceRoots,
		// Read at every WAIT and edit: a changed setting applies without New Chat.
		editedFiles: { limits: editedFilesLimitsOf(settings), excludedFolders: [...storageFolders] },
		log,
		// Restricted Mode (docs/permissions.md): no kind of an untrusted workspace's files is given.
		instructions: { kinds: () => (vscode.workspace.isTrusted ? configuration.current.instructionFiles : []), malformed: malformedInstructionsNotice(log) },
		diagnostics: {
			source: store.add(new VsCodeDiagnosticsSource()),
			documents: vscodeDocuments,
			clock: systemClock,
			timers: systemTimers,
			options: { displayPath: (uri) => displayPath(vscode.Uri.parse(uri).fsPath, workspaceRoots()), limits: diagnosticsLimitsOf(settings), log },
			telemetry: (counts) => {
				// Counts only: never diagnostic text or paths.
				log.info(`Edit diagnostics: ${counts.new} new, ${counts.changed} changed, ${counts.preExisting} pre-existing, ${counts.resolved} resolved; waited ${counts.waitedMs} ms (ended by ${counts.endedBy}).`);
			},
			openEditedFiles: () => configuration.current.diagnosticsOpenEditedFiles,
		},
		dispose: () => {
			store.dispose();
		},
	};
}
