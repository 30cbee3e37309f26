<?php

declare(strict_types=1);

if (!defined('ABSPATH')) {
    exit;
}

use Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType;

/** Lists the gateway in the block checkout (assets/blocks.js registers it there). */
final class Caisse_WC_Blocks extends AbstractPaymentMethodType
{
    protected $name = Caisse_WC_Gateway::ID;

    public function initialize(): void
    {
        $this->settings = get_option('woocommerce_' . Caisse_WC_Gateway::ID . '_settings', []);
    }

    public function is_active(): bool
    {
        $gateway = WC()->payment_gateways()->payment_gateways()[Caisse_WC_Gateway::ID] ?? null;
        return $gateway instanceof Caisse_WC_Gateway && $gateway->is_available();
    }

    public function get_payment_method_script_handles(): array
    {
        wp_register_script(
            'caisse-wc-blocks',
            plugins_url('assets/blocks.js', CAISSE_WC_FILE),
            ['wc-blocks-registry', 'wc-settings', 'wp-element', 'wp-html-entities'],
            CAISSE_WC_VERSION,
            true,
        );
        return ['caisse-wc-blocks'];
    }

    public function get_payment_method_data(): array
    {
        $gateway = WC()->payment_gateways()->payment_gateways()[Caisse_WC_Gateway::ID] ?? null;
        return [
            'title' => $gateway?->get_title() ?? '',
            'description' => $gateway?->get_description() ?? '',
            'supports' => $gateway?->supports ?? ['products'],
        ];
    }
}
