// Reads Aside's settings from VS Code, re-reads them when they change, and tells the person
// (once per distinct problem) when a value is invalid and which default is used instead.
import * as vscode from 'vscode';
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ViewSettings } from '../protocol/messages';
import { type AsideSettings, readSettings, type SettingProblem, viewSettingsOf } from './settings';

export class Configuration extends Disposable {
	private _current: AsideSettings;
	private _problems: readonly SettingProblem[] = [];
	private readonly reported = new Set<string>();

	private readonly _onDidChange = this._register(new Emitter<AsideSettings>());
	readonly onDidChange: Event<AsideSettings> = this._onDidChange.event;

	/** The part of the settings the chat view needs, as the view connection consumes it. */
	readonly view: { current: ViewSettings; readonly onDidChange: Event<ViewSettings>; readonly autoCompactAt: () => number | undefined };

	constructor(private readonly log: Logger) {
		super();
		this._current = this.read();
		const viewChanged = this._register(new Emitter<ViewSettings>());
		this._register(this.onDidChange((settings) => {
			this.view.current = viewSettingsOf(settings);
			viewChanged.fire(this.view.current);
		}));
		this.view = {
			current: viewSettingsOf(this._current),
			onDidChange: viewChanged.event,
			autoCompactAt: () => (this._current.autoCompact ? this._current.autoCompactAt : undefined),
		};
		this._register(vscode.workspace.onDidChangeConfiguration((event) => {
			if (!event.affectsConfiguration('aside')) {
				return;
			}
			const next = this.read();
			// Settings are plain JSON values: equal text means nothing the code sees changed.
			if (JSON.stringify(next) !== JSON.stringify(this._current)) {
				this._current = next;
				this._onDidChange.fire(next);
			}
		}));
	}

	get current(): AsideSettings {
		return this._current;
	}

	/** What was wrong with the settings at the last read (each also shown to the person once). */
	get problems(): readonly SettingProblem[] {
		return this._problems;
	}

	private read(): AsideSettings {
		const config = vscode.workspace.getConfiguration();
		const { settings, problems } = readSettings((key) => config.get(key));
		this._problems = problems;
		for (const problem of problems) {
			if (this.reported.has(problem.message)) {
				continue;
			}
			this.reported.add(problem.message);
			this.log.warn(problem.message);
			void vscode.window.showWarningMessage(`Aside: ${problem.message}`, 'Open Settings').then((choice) => {
				if (choice) {
					void vscode.commands.executeCommand('workbench.action.openSettings', problem.key);
				}
			});
		}
		return settings;
	}
}
