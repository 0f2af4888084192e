/** The live context window: the gauge that follows a session's transcript, its breakdown and forecast. */
export { type ContextGaugeOptions, type GaugeReading, type TrendPoint, ContextGauge } from './contextGauge';
export { estimateSteps } from './contextForecast';
export type { BreakdownItem, ContextBreakdown } from './breakdownTypes';
// What the host and the dashboard show of the context is declared in src/shared.
export type { BreakdownCategoryName } from '../../shared/context';
export { MAX_BREAKDOWN_ITEMS } from './breakdownTypes';
export { toolResultText } from './toolResultText';
