/** Types of the context window, the next session's context and the advice, as the host passes them on (`ContextTypes`). */
export type { ContextBreakdown } from '../../live/breakdownTypes';
export type { ActiveSession, SessionGauge } from '../../live/activeSession';
export type { SessionContext } from '../../context/sessionContextText';
export type { CompactWarningInput, CompactWarningSettings } from '../../context/compactWarning';
export type { Advice } from '../../pruning/advisor';
export type { AdviceState } from '../../pruning/adviceState';
