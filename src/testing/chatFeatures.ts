// The chat features registered as the extension registers them when the feature list loads: their
// record kinds with the transcript, their reminder types with the key registry and the settings.
// A spec that reads those composed lists, or builds a feature's state without an agent, imports this.
import '../features/features';
