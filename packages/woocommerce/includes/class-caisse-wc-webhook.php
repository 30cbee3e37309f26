<?php

declare(strict_types=1);

if (!defined('ABSPATH')) {
    exit;
}

/**
 * Caisse's webhook deliveries, at `/?wc-api=caisse` (WC()->api_request_url('caisse')). Only a
 * delivery whose `pay-signature` verifies with the mode's webhook secret is acted on; a
 * `payment.completed` for an order still unpaid, of the order's amount and currency, marks it paid
 * (once: deliveries may come twice, or at the same time).
 */
final class Caisse_WC_Webhook
{
    public const ENDPOINT = 'caisse';
    private const META_EVENTS = '_caisse_event_ids';

    public static function register(): void
    {
        add_action('woocommerce_api_' . self::ENDPOINT, [self::class, 'handle']);
    }

    public static function handle(): void
    {
        $gateway = WC()->payment_gateways()->payment_gateways()[Caisse_WC_Gateway::ID] ?? null;
        if (!$gateway instanceof Caisse_WC_Gateway || $_SERVER['REQUEST_METHOD'] !== 'POST') {
            self::answer(404, 'not_found');
        }
        $secrets = $gateway->webhook_secrets();
        if ($secrets === []) {
            wc_get_logger()->warning('Caisse: a webhook arrived but no webhook secret is set for this mode', ['source' => 'caisse']);
            self::answer(503, 'webhook_secret_missing');
        }
        try {
            $event = \Caisse\Webhook::constructEvent((string) file_get_contents('php://input'), $_SERVER['HTTP_PAY_SIGNATURE'] ?? null, $secrets);
        } catch (\Caisse\Exception\WebhookSignatureException $e) {
            wc_get_logger()->warning('Caisse: webhook refused: ' . $e->code, ['source' => 'caisse']);
            self::answer(400, $e->code);
        }
        if (($event['livemode'] ?? null) === $gateway->is_test_mode()) {
            // A delivery of the other mode: nothing to do here, and nothing to retry.
            self::answer(200, 'ignored_other_mode');
        }
        $intent = $event['data']['paymentIntent'] ?? null;
        $orderId = is_array($intent) ? ($intent['metadata']['orderId'] ?? null) : null;
        $order = is_string($orderId) || is_int($orderId) ? wc_get_order((int) $orderId) : false;
        if (!$order || $order->get_payment_method() !== Caisse_WC_Gateway::ID || ($intent['metadata']['orderKey'] ?? null) !== $order->get_order_key()) {
            self::answer(200, 'ignored_unknown_order');
        }
        self::apply($order->get_id(), $event);
        self::answer(200, 'ok');
    }

    /** @param array<string, mixed> $event */
    private static function apply(int $orderId, array $event): void
    {
        global $wpdb;
        // Two deliveries at the same time (a retry crossing the first) must not both act: one
        // lock per order, held for the read-check-write below.
        $lock = 'caisse_wc_order_' . $orderId;
        $wpdb->get_var($wpdb->prepare('SELECT GET_LOCK(%s, 10)', $lock));
        try {
            $order = wc_get_order($orderId);
            $seen = (array) ($order->get_meta(self::META_EVENTS) ?: []);
            if (in_array($event['id'], $seen, true)) {
                return;
            }
            $intent = $event['data']['paymentIntent'];
            switch ($event['type']) {
                case 'payment.completed':
                    self::completed($order, $intent, (string) $event['id']);
                    break;
                case 'payment.failed':
                    $order->add_order_note(sprintf(/* translators: 1: intent id, 2: reason */ __('Caisse payment %1$s: an attempt failed (%2$s); the shopper may try again.', 'caisse-woocommerce'), $intent['id'], $intent['failureCode'] ?? $intent['lastAttempt']['failureCode'] ?? '—'));
                    break;
                case 'payment.expired':
                case 'payment.canceled':
                    // Only the order's current intent decides: an earlier one is canceled on purpose when the shopper starts again.
                    if (!$order->is_paid() && $order->get_meta(Caisse_WC_Gateway::META_INTENT) === $intent['id'] && $order->has_status('pending')) {
                        $order->update_status('failed', sprintf(/* translators: %s: intent id */ __('Caisse payment %s was not made in time or was canceled.', 'caisse-woocommerce'), $intent['id']));
                    }
                    break;
                case 'payment.refunded':
                    $refund = $event['data']['refund'] ?? null;
                    $order->add_order_note(sprintf(/* translators: 1: amount, 2: intent id */ __('Caisse refunded %1$s of payment %2$s.', 'caisse-woocommerce'), (is_array($refund) ? $refund['amount'] : $intent['amountRefunded']) . ' ' . $intent['currency'], $intent['id']));
                    break;
                case 'refund.failed':
                    $order->add_order_note(sprintf(/* translators: %s: intent id */ __('A Caisse refund of payment %s failed: the money is back in your Caisse balance. Refund the shopper another way.', 'caisse-woocommerce'), $intent['id']));
                    break;
            }
            $order = wc_get_order($orderId);
            $seen[] = $event['id'];
            $order->update_meta_data(self::META_EVENTS, array_slice($seen, -50));
            $order->save();
        } finally {
            $wpdb->get_var($wpdb->prepare('SELECT RELEASE_LOCK(%s)', $lock));
        }
    }

    /** @param array<string, mixed> $intent */
    private static function completed(WC_Order $order, array $intent, string $eventId): void
    {
        if ($order->is_paid()) {
            if ($order->get_transaction_id() !== $intent['id']) {
                $order->add_order_note(sprintf(/* translators: %s: intent id */ __('Caisse payment %s succeeded for an order already paid: refund it from your Caisse dashboard.', 'caisse-woocommerce'), $intent['id']));
            }
            return;
        }
        $expected = Caisse_WC_Gateway::amount($order->get_total(), $order->get_currency());
        if (($intent['status'] ?? null) !== 'SUCCEEDED' || $intent['amount'] !== $expected || $intent['currency'] !== $order->get_currency()) {
            $order->add_order_note(sprintf(/* translators: 1: intent id, 2: amount */ __('Caisse payment %1$s (%2$s) does not match this order: not marked paid.', 'caisse-woocommerce'), $intent['id'], $intent['amount'] . ' ' . $intent['currency']));
            return;
        }
        $order->update_meta_data(Caisse_WC_Gateway::META_INTENT, $intent['id']);
        $order->add_order_note(sprintf(/* translators: 1: intent id, 2: event id */ __('Paid with Caisse: payment %1$s (event %2$s).', 'caisse-woocommerce'), $intent['id'], $eventId));
        $order->payment_complete($intent['id']);
    }

    private static function answer(int $status, string $result): never
    {
        status_header($status);
        header('content-type: application/json');
        echo wp_json_encode(['result' => $result]);
        exit;
    }
}
