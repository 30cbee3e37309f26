<?php

declare(strict_types=1);

if (!defined('ABSPATH')) {
    exit;
}

/**
 * The payment gateway: the order goes to Caisse's hosted checkout (an intent with the order's id in
 * its metadata and `returnUrl` = the order-received page); the order is marked paid only by the
 * verified `payment.completed` webhook (Caisse_WC_Webhook), never by the shopper's return;
 * refunds from the order screen go through Caisse (to the payer's phone for mobile money).
 */
class Caisse_WC_Gateway extends WC_Payment_Gateway
{
    public const ID = 'caisse';
    /** Minor-unit digits of the currencies Caisse takes. */
    public const CURRENCIES = ['XAF' => 0, 'XOF' => 0, 'EUR' => 2, 'USD' => 2];
    public const META_INTENT = '_caisse_intent_id';

    public function __construct()
    {
        $this->id = self::ID;
        $this->method_title = __('Caisse', 'caisse-woocommerce');
        $this->method_description = __('Mobile money (MTN MoMo, Orange Money, Wave) and the Caisse wallet, on your Caisse gateway’s hosted checkout. Orders are marked paid by Caisse’s signed webhook.', 'caisse-woocommerce');
        $this->has_fields = false;
        $this->supports = ['products', 'refunds'];
        $this->init_form_fields();
        $this->init_settings();
        $this->title = (string) $this->get_option('title');
        $this->description = (string) $this->get_option('description');
        if ($this->is_test_mode()) {
            $this->description = trim($this->description . "\n\n" . __('Test mode: no real money moves.', 'caisse-woocommerce'));
        }
        add_action('woocommerce_update_options_payment_gateways_' . $this->id, [$this, 'process_admin_options']);
        add_action('woocommerce_thankyou_' . $this->id, [$this, 'thankyou_page']);
    }

    public function init_form_fields(): void
    {
        $webhook = WC()->api_request_url(Caisse_WC_Webhook::ENDPOINT);
        $this->form_fields = [
            'enabled' => ['title' => __('Enable', 'caisse-woocommerce'), 'type' => 'checkbox', 'label' => __('Take payments with Caisse', 'caisse-woocommerce'), 'default' => 'no'],
            'title' => ['title' => __('Title', 'caisse-woocommerce'), 'type' => 'text', 'default' => __('Mobile money', 'caisse-woocommerce'), 'desc_tip' => true, 'description' => __('What the shopper sees at checkout.', 'caisse-woocommerce')],
            'description' => ['title' => __('Description', 'caisse-woocommerce'), 'type' => 'textarea', 'default' => __('Pay with MTN MoMo, Orange Money, Wave or your Caisse wallet on the secure payment page.', 'caisse-woocommerce')],
            'base_url' => ['title' => __('Caisse gateway address', 'caisse-woocommerce'), 'type' => 'text', 'placeholder' => 'https://pay.example.com', 'description' => __('Where your Caisse gateway runs (https; plain http only to localhost).', 'caisse-woocommerce')],
            'testmode' => ['title' => __('Mode', 'caisse-woocommerce'), 'type' => 'checkbox', 'label' => __('Test mode (test keys, the providers’ sandboxes: no real money)', 'caisse-woocommerce'), 'default' => 'yes'],
            'test_api_key' => ['title' => __('Test publishable key', 'caisse-woocommerce'), 'type' => 'text', 'placeholder' => 'pk_test_…'],
            'test_secret_key' => ['title' => __('Test secret key', 'caisse-woocommerce'), 'type' => 'password', 'placeholder' => 'sk_test_…'],
            'test_webhook_secret' => ['title' => __('Test webhook secret', 'caisse-woocommerce'), 'type' => 'password', 'placeholder' => 'whsec_…', 'description' => sprintf(/* translators: %s: the webhook URL */ __('Create a webhook endpoint in Caisse for %s (events payment.completed, payment.failed, payment.expired, payment.canceled, payment.refunded, refund.failed) and paste its secret here.', 'caisse-woocommerce'), '<code>' . esc_html($webhook) . '</code>')],
            'live_api_key' => ['title' => __('Live publishable key', 'caisse-woocommerce'), 'type' => 'text', 'placeholder' => 'pk_live_…'],
            'live_secret_key' => ['title' => __('Live secret key', 'caisse-woocommerce'), 'type' => 'password', 'placeholder' => 'sk_live_…'],
            'live_webhook_secret' => ['title' => __('Live webhook secret', 'caisse-woocommerce'), 'type' => 'password', 'placeholder' => 'whsec_…'],
        ];
    }

    public function is_test_mode(): bool
    {
        return $this->get_option('testmode', 'yes') === 'yes';
    }

    private function key(string $name): string
    {
        return trim((string) $this->get_option(($this->is_test_mode() ? 'test_' : 'live_') . $name));
    }

    /** The webhook secrets of the mode in use (several, separated by commas, while one is rolled). @return list<string> */
    public function webhook_secrets(): array
    {
        return array_values(array_filter(array_map('trim', explode(',', $this->key('webhook_secret')))));
    }

    public function client(): \Caisse\Caisse
    {
        return new \Caisse\Caisse([
            'apiKey' => $this->key('api_key'),
            'secretKey' => $this->key('secret_key'),
            'baseUrl' => trim((string) $this->get_option('base_url')),
            // A shopper waits on the checkout: one retry, short attempts.
            'maxRetries' => 1,
            'timeout' => 15,
        ]);
    }

    public function is_available(): bool
    {
        if (!parent::is_available() || $this->key('api_key') === '' || $this->key('secret_key') === '' || trim((string) $this->get_option('base_url')) === '') {
            return false;
        }
        return isset(self::CURRENCIES[get_woocommerce_currency()]);
    }

    /** The keys and the address are checked when saved: a typo shows now, not at a shopper's checkout. */
    public function process_admin_options()
    {
        $saved = parent::process_admin_options();
        if ($this->get_option('enabled') === 'yes') {
            try {
                $this->init_settings();
                $this->client();
            } catch (\InvalidArgumentException $e) {
                WC_Admin_Settings::add_error(__('Caisse:', 'caisse-woocommerce') . ' ' . $e->getMessage());
            }
        }
        return $saved;
    }

    /** The amount as Caisse wants it: a decimal string with the currency's digits ("5000" XAF), or null when the total has more. */
    public static function amount(float|string $total, string $currency): ?string
    {
        $digits = self::CURRENCIES[$currency] ?? null;
        if ($digits === null) {
            return null;
        }
        $formatted = number_format((float) $total, $digits, '.', '');
        return abs((float) $formatted - (float) $total) < 0.000001 ? $formatted : null;
    }

    public function process_payment($order_id)
    {
        $order = wc_get_order($order_id);
        $currency = $order->get_currency();
        $amount = self::amount($order->get_total(), $currency);
        if ($amount === null) {
            wc_add_notice(sprintf(/* translators: %s: currency code */ __('This order cannot be paid with Caisse in %s.', 'caisse-woocommerce'), $currency), 'error');
            return ['result' => 'failure'];
        }
        try {
            $caisse = $this->client();
            // A new attempt at the same order: the intent of the previous one must not be paid too.
            $previous = (string) $order->get_meta(self::META_INTENT);
            if ($previous !== '') {
                try {
                    $caisse->intents->cancel($previous);
                } catch (\Caisse\Exception\CaisseException) {
                    // Already settled, expired or canceled: the webhook says what happened to it.
                }
            }
            $intent = $caisse->intents->create([
                'amount' => $amount,
                'currency' => $currency,
                'description' => mb_substr(sprintf(/* translators: 1: order number, 2: shop name */ __('Order %1$s at %2$s', 'caisse-woocommerce'), $order->get_order_number(), get_bloginfo('name')), 0, 1000),
                'metadata' => ['orderId' => (string) $order->get_id(), 'orderKey' => $order->get_order_key(), 'source' => 'woocommerce'],
                'returnUrl' => $this->get_return_url($order),
            ]);
        } catch (\Caisse\Exception\CaisseException | \InvalidArgumentException $e) {
            wc_get_logger()->error('Caisse: creating the intent for order ' . $order->get_id() . ' failed: ' . $e->getMessage(), ['source' => 'caisse']);
            wc_add_notice(__('The payment could not be started. Please try again in a moment.', 'caisse-woocommerce'), 'error');
            return ['result' => 'failure'];
        }
        $order->update_meta_data(self::META_INTENT, $intent['id']);
        $order->add_order_note(sprintf(/* translators: %s: payment intent id */ __('Caisse payment %s created; the shopper was sent to the payment page.', 'caisse-woocommerce'), $intent['id']));
        $order->update_status('pending');
        $order->save();
        WC()->cart?->empty_cart();
        return ['result' => 'success', 'redirect' => rtrim(trim((string) $this->get_option('base_url')), '/') . '/checkout/' . rawurlencode($intent['sessionToken'])];
    }

    /** On the order-received page: the order is paid only once Caisse's webhook said so. */
    public function thankyou_page($order_id): void
    {
        $order = wc_get_order($order_id);
        if (!$order || $order->is_paid()) {
            return;
        }
        echo '<div class="woocommerce-info caisse-awaiting" data-caisse-status="' . esc_attr($order->get_status()) . '">';
        echo esc_html__('We are waiting for Caisse to confirm your payment: this page updates by itself. If you did not finish paying, you can try again.', 'caisse-woocommerce');
        echo ' <a class="button caisse-pay-again" href="' . esc_url($order->get_checkout_payment_url()) . '">' . esc_html__('Pay again', 'caisse-woocommerce') . '</a>';
        echo '</div>';
        // Reloads a few times while the webhook is awaited (it usually comes within seconds).
        echo "<script>(function(){var k='caisse-reloads-" . (int) $order->get_id() . "',n=+(sessionStorage.getItem(k)||0);if(n<40){sessionStorage.setItem(k,n+1);setTimeout(function(){location.reload();},3000);}})();</script>";
    }

    public function process_refund($order_id, $amount = null, $reason = '')
    {
        $order = wc_get_order($order_id);
        $intentId = (string) ($order->get_transaction_id() ?: $order->get_meta(self::META_INTENT));
        if ($intentId === '') {
            return new WP_Error('caisse_refund', __('This order has no Caisse payment to refund.', 'caisse-woocommerce'));
        }
        $params = [];
        if ($amount !== null) {
            $formatted = self::amount($amount, $order->get_currency());
            if ($formatted === null) {
                return new WP_Error('caisse_refund', __('The amount has more decimals than the currency allows.', 'caisse-woocommerce'));
            }
            $params['amount'] = $formatted;
        }
        if ($reason !== '' && $reason !== null) {
            $params['reason'] = mb_substr((string) $reason, 0, 500);
        }
        try {
            // One key per refund of the order: a retry of this request never refunds twice.
            $refund = $this->client()->refunds->create($intentId, $params, ['idempotencyKey' => 'wc-' . $order->get_id() . '-refund-' . count($order->get_refunds()) . '-' . ($params['amount'] ?? 'all')]);
        } catch (\Caisse\Exception\CaisseException $e) {
            return new WP_Error('caisse_refund', sprintf(/* translators: 1: error message, 2: error code */ __('Caisse refused the refund: %1$s (%2$s)', 'caisse-woocommerce'), $e->getMessage(), $e->code));
        } catch (\InvalidArgumentException $e) {
            return new WP_Error('caisse_refund', $e->getMessage());
        }
        $order->add_order_note(sprintf(
            /* translators: 1: amount, 2: refund id, 3: status */
            __('Refund of %1$s sent through Caisse (%2$s, %3$s): back to the payer’s wallet or mobile-money number.', 'caisse-woocommerce'),
            $refund['amount'] . ' ' . $order->get_currency(),
            $refund['id'],
            $refund['status'],
        ));
        return true;
    }

    /** A notice on WooCommerce's pages while Caisse takes test payments. */
    public static function test_mode_notice(): void
    {
        if (!current_user_can('manage_woocommerce')) {
            return;
        }
        $settings = get_option('woocommerce_' . self::ID . '_settings', []);
        if (($settings['enabled'] ?? 'no') !== 'yes' || ($settings['testmode'] ?? 'yes') !== 'yes') {
            return;
        }
        $url = admin_url('admin.php?page=wc-settings&tab=checkout&section=' . self::ID);
        echo '<div class="notice notice-warning caisse-test-mode"><p>' . wp_kses_post(sprintf(
            /* translators: %s: settings URL */
            __('Caisse is in <strong>test mode</strong>: payments go to the providers’ sandboxes and no real money moves. <a href="%s">Switch to live mode</a> when your live keys are ready.', 'caisse-woocommerce'),
            esc_url($url),
        )) . '</p></div>';
    }
}
