// pdf.js (pdf.ts) constructs a DOMMatrix as it loads, for its canvas renderer, which Aside never
// runs: it only extracts text. The extension host has no DOM, so esbuild.mjs injects this class
// for that one name in the bundle instead of a global polyfill that every other extension in the
// host would see. Rendering paths that would call its methods are never reached.
export class DOMMatrix {
	/** Marks the stand-in, should anything ever look. */
	readonly asideStandIn = true;
}
