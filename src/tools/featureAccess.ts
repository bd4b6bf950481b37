// What a chat feature hands the tools of one agent loop (src/agent/chatFeature.ts `toolAccess`):
// its part of the chat's state as that agent may reach it, under a key the tools and the feature
// share. The tool context carries one FeatureAccess, so a feature adds no field to it.

/** The name a feature hands its tools' access under; `A` is what they get. */
export interface FeatureAccessKey<A> {
	readonly id: string;
	/** Never set: it only carries `A`, so a key gives its tools the type the feature granted. */
	readonly carries?: (access: A) => A;
}

export function featureAccessKey<A>(id: string): FeatureAccessKey<A> {
	return { id };
}

/** What one loop's tools reach of the chat features, by key; undefined where no feature grants it. */
export interface FeatureAccess {
	get<A>(key: FeatureAccessKey<A>): A | undefined;
}

/** `access` under `key`, nothing under any other key. */
export function grant<A>(key: FeatureAccessKey<A>, access: A): FeatureAccess {
	return {
		// The key's id is unique, so what it names was granted as its `A`.
		get: <B>(asked: FeatureAccessKey<B>): B | undefined => (asked.id === key.id ? (access as unknown as B) : undefined),
	};
}

/** What any of `grants` hands under a key: the first that has it. */
export function anyOf(grants: readonly FeatureAccess[]): FeatureAccess {
	return {
		get: <A>(key: FeatureAccessKey<A>): A | undefined => {
			for (const granted of grants) {
				const access = granted.get(key);
				if (access !== undefined) {
					return access;
				}
			}
			return undefined;
		},
	};
}
