import type { AccountEvents, HookRequest } from "../account-hooks.js";
import type { SecondFactorAccountThrottled, SecondFactorRefused } from "./second-factor-sign-in.js";

/**
 * Records a refused answer to a sign-in's second step as `user.sign_in_failed` of the account
 * its challenge named (`details: { method: "second_factor", reason }`, the reason `wrong_code`,
 * `void` once the challenge is used up, or `throttled`); an answer to no live challenge names
 * nobody and is not recorded.
 */
export async function recordFailedSecondStep(
  events: AccountEvents,
  refused: SecondFactorRefused | SecondFactorAccountThrottled,
  at: HookRequest,
): Promise<void> {
  if (refused.userId === undefined) return;
  const reason = refused.reason === "wrong-code" ? "wrong_code" : refused.reason;
  await events.audited("user.sign_in_failed", refused.userId, at, {
    details: { method: "second_factor", reason },
  });
}
