// The first run's wiring: the probe for local model servers (Ollama, LM Studio on their default
// ports; the integration tests move them) and the provider setup whose actions run Aside's own
// commands and quick picks. What to offer and when is decided in src/agent/providerSetup.ts.
import * as vscode from 'vscode';
import type { Logger } from '../base/log';
import type { NetworkGate } from '../agent/networkGate';
import { type AgentAvailability, ProviderSetup } from '../agent/providerSetup';
import type { ChatSessions } from '../agent/sessions';
import { detectLocalServers, type DetectedServer, type LocalPorts, testLocalPorts } from '../providers/localServers';
import { KEYED_PROVIDER_LABELS } from './apiKeys';
import { useServer } from './chooseProvider';
import type { VsCodeModelSource } from './models';

export interface LocalServerProbe {
	/** Read at each probe: only the integration tests move the ports (ASIDE_TEST_HOOKS=1). */
	readonly ports: () => LocalPorts;
	/** Probes without a key, with a short timeout. */
	readonly detect: (signal?: AbortSignal) => Promise<readonly DetectedServer[]>;
}

export function localServerProbe(): LocalServerProbe {
	const ports = (): LocalPorts => testLocalPorts(process.env);
	return { ports, detect: (signal) => detectLocalServers({ ports: ports(), timeoutMs: 1500, ...(signal ? { signal } : {}) }) };
}

export interface SetupHost {
	readonly gate: NetworkGate;
	readonly agent: AgentAvailability;
	readonly sessions: ChatSessions;
	/** The model source behind the gate: it knows which key the configured provider lacks. */
	readonly models: VsCodeModelSource;
	readonly probe: LocalServerProbe;
	readonly log: Logger;
}

export function vscodeProviderSetup({ gate, agent, sessions, models, probe, log }: SetupHost): ProviderSetup {
	return new ProviderSetup({
		gate,
		agent,
		sessions,
		detect: probe.detect,
		keyNeeded: async () => {
			const need = await models.keyNeed();
			return need && { ...need, label: KEYED_PROVIDER_LABELS[need.provider] };
		},
		actions: {
			chooseProvider: () => vscode.commands.executeCommand('aside.chooseProvider'),
			useServer: (server) => useServer(server, log),
			storeKey: (need) => vscode.commands.executeCommand('aside.setApiKey', { provider: need.provider, origin: need.origin }),
		},
		log,
	});
}
