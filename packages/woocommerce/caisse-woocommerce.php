<?php
/**
 * Plugin Name: Caisse for WooCommerce
 * Plugin URI: https://github.com/caisse/caisse
 * Description: Take payments by mobile money (MTN MoMo, Orange Money, Wave) and the Caisse wallet through your Caisse gateway's hosted checkout.
 * Version: 0.1.0
 * Requires at least: 6.9
 * Requires PHP: 8.2
 * Requires Plugins: woocommerce
 * WC requires at least: 9.0
 * WC tested up to: 11.0
 * Author: Caisse
 * License: Apache-2.0
 * Text Domain: caisse-woocommerce
 * Domain Path: /languages
 */

declare(strict_types=1);

if (!defined('ABSPATH')) {
    exit;
}

const CAISSE_WC_VERSION = '0.1.0';
const CAISSE_WC_FILE = __FILE__;

// The PHP client: in the zip under lib/caisse-php (npm run build:woocommerce copies it there).
require_once __DIR__ . '/lib/caisse-php/autoload.php';

add_action('plugins_loaded', static function (): void {
    load_plugin_textdomain('caisse-woocommerce', false, dirname(plugin_basename(CAISSE_WC_FILE)) . '/languages');
    if (!class_exists('WC_Payment_Gateway')) {
        return;
    }
    require_once __DIR__ . '/includes/class-caisse-wc-gateway.php';
    require_once __DIR__ . '/includes/class-caisse-wc-webhook.php';
    add_filter('woocommerce_payment_gateways', static function (array $gateways): array {
        $gateways[] = Caisse_WC_Gateway::class;
        return $gateways;
    });
    Caisse_WC_Webhook::register();
    add_action('admin_notices', [Caisse_WC_Gateway::class, 'test_mode_notice']);
});

// HPOS (custom order tables) and the block checkout.
add_action('before_woocommerce_init', static function (): void {
    if (class_exists(\Automattic\WooCommerce\Utilities\FeaturesUtil::class)) {
        \Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility('custom_order_tables', CAISSE_WC_FILE, true);
        \Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility('cart_checkout_blocks', CAISSE_WC_FILE, true);
    }
});

add_action('woocommerce_blocks_loaded', static function (): void {
    if (!class_exists(\Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType::class)) {
        return;
    }
    require_once __DIR__ . '/includes/class-caisse-wc-blocks.php';
    add_action('woocommerce_blocks_payment_method_type_registration', static function ($registry): void {
        $registry->register(new Caisse_WC_Blocks());
    });
});

add_filter('plugin_action_links_' . plugin_basename(__FILE__), static function (array $links): array {
    $url = admin_url('admin.php?page=wc-settings&tab=checkout&section=caisse');
    array_unshift($links, '<a href="' . esc_url($url) . '">' . esc_html__('Settings', 'caisse-woocommerce') . '</a>');
    return $links;
});
