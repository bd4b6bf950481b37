// The first-run offers (src/agent/providerSetup.ts) as the empty state shows them, and the
// setup behind the view connection's controls.
import type { KeyNeeded } from '../agent/providerSetup';
import type { Event } from '../base/event';
import type { SetupView } from '../protocol/messages';
import { type DetectedServer, offerLabel } from '../providers/localServers';
import type { SetupControls } from './controls';

/** What the setup offers now. */
export interface SetupOffers {
	readonly detected: readonly DetectedServer[];
	readonly keyNeeded: KeyNeeded | undefined;
}

/** Servers offered by name; a missing key by the provider's name and the origin it is for. */
export function setupView(offers: SetupOffers): SetupView {
	const need = offers.keyNeeded;
	return {
		detected: offers.detected.map((server) => ({ id: server.id, label: offerLabel(server) })),
		...(need ? { keyNeeded: { provider: need.label, origin: need.origin } } : {}),
	};
}

/** What the view shows of the setup and asks of it: `ProviderSetup`. */
export interface ViewedSetup extends SetupOffers {
	readonly onDidChange: Event<void>;
	viewShown(): void;
	chooseProvider(): void;
	useDetected(id: string): void;
	storeKey(): void;
}

export class SetupPresenter implements SetupControls {
	readonly onDidChange: Event<SetupView>;

	constructor(private readonly setup: ViewedSetup) {
		this.onDidChange = (listener) => setup.onDidChange(() => {
			listener(setupView(setup));
		});
	}

	view(): SetupView {
		return setupView(this.setup);
	}

	viewShown(): void {
		this.setup.viewShown();
	}

	chooseProvider(): void {
		this.setup.chooseProvider();
	}

	useDetected(id: string): void {
		this.setup.useDetected(id);
	}

	storeKey(): void {
		this.setup.storeKey();
	}
}
