import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Payout } from '../payouts/index.ts';
import { need, tags } from './operators.http.ts';
import { PayoutIdParams, PayoutsInReview, PayoutThresholdList, RejectPayoutBody, ReviewPayoutBody, SetPayoutThresholdBody } from './operators.schema.ts';

/** The review of large payouts (four eyes, decision 0041): thresholds, the payouts held, approve or reject. */
export async function operatorPayoutsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/payouts/thresholds',
    {
      config: need('payouts:review'),
      schema: { tags, summary: 'The payout review thresholds, per mode and currency', response: { 200: PayoutThresholdList } },
    },
    async () => operators.payoutThresholds(),
  );

  app.put(
    '/payouts/thresholds',
    {
      config: need('payouts:thresholds'),
      schema: {
        tags,
        summary: 'Set (or, with amount null, remove) the threshold above which a payout of a mode and currency waits in REVIEW',
        description: 'Payouts made from then on are held; the operator who set it may not review what it holds (another one must).',
        body: SetPayoutThresholdBody,
        response: { 200: PayoutThresholdList },
      },
    },
    async (req) => operators.setPayoutThreshold(req.operatorSession, req.body),
  );

  app.get(
    '/payouts/review',
    {
      config: need('payouts:review'),
      schema: {
        tags,
        summary: 'Payouts waiting for review, oldest first',
        response: { 200: PayoutsInReview },
      },
    },
    async () => operators.payoutsInReview(),
  );

  for (const [path, approve] of [
    ['approve', true],
    ['reject', false],
  ] as const) {
    app.post(
      `/payouts/:id/${path}`,
      {
        config: need('payouts:review'),
        schema: {
          tags,
          summary: approve
            ? 'Approve a payout in REVIEW: it goes to the provider (PENDING)'
            : 'Reject a payout in REVIEW with a reason: FAILED (REVIEW_REJECTED), its money back in available, `payout.failed` sent',
          description:
            "Not in REVIEW (as for the second of two operators at the same moment): 409 `payout_state_invalid`. By the operator who set the threshold that held it: 403 `four_eyes_required`. Approving a frozen merchant's payout: 403 `merchant_frozen`.",
          params: PayoutIdParams,
          body: approve ? ReviewPayoutBody : RejectPayoutBody,
          response: { 200: Payout },
        },
      },
      async (req) => operators.reviewPayout(req.operatorSession, req.params.id, approve, req.body.reason),
    );
  }
}
