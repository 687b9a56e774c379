/** Every workflow the worker registers (workflowsPath in dev, bundled for production and tests). */
export { payoutSetupWorkflow } from "./payout/workflow";
export { cardOnFileWorkflow } from "./card/workflow";
export { buyOrderWorkflow } from "./buy/workflow";
export { swapOrderWorkflow } from "./swap/workflow";
export { rmaWorkflow } from "./rma/workflow";
export { heldPaymentsRetryWorkflow, heldPaymentsDigestWorkflow } from "./held-payments/workflow";
export { reconciliationWorkflow } from "./reconciliation/workflow";
export { markdownDayWorkflow } from "./markdown/workflow";
export { offerWorkflow } from "./offer/workflow";
