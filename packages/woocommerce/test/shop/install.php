<?php

// Installs the test shop (no wp-cli in Debian): WordPress, Storefront, WooCommerce and its pages,
// the store's settings (XAF, HPOS, no "coming soon"), two products, a classic checkout page beside
// the default block one, the Caisse plugin (already unpacked from its zip) and its settings.
// Usage: php install.php <site dir> <site url> <json settings for the Caisse gateway>
// Prints a JSON line: the product ids and the pages' URLs.

[$_, $site, $url, $gateway] = $argv;
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = parse_url($url, PHP_URL_HOST) . ':' . parse_url($url, PHP_URL_PORT);
$_SERVER['REQUEST_URI'] = '/';
require $site . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

wp_install('Boutique Caisse', 'admin', 'admin@shop.test', true, '', 'admin-password-1', 'en_US');
update_option('siteurl', $url);
update_option('home', $url);
update_option('permalink_structure', '/%postname%/');
switch_theme('storefront');

$activated = activate_plugin('woocommerce/woocommerce.php');
if (is_wp_error($activated)) {
    fwrite(STDERR, $activated->get_error_message());
    exit(1);
}
// activate_plugin loads the plugin file in this process; run what its hooks would.
do_action('plugins_loaded');
WC_Install::install();
WC_Install::create_pages();

foreach ([
    'woocommerce_store_address' => 'Rue de la Joie',
    'woocommerce_store_city' => 'Douala',
    'woocommerce_default_country' => 'CM',
    'woocommerce_store_postcode' => '00237',
    'woocommerce_currency' => 'XAF',
    'woocommerce_price_num_decimals' => '0',
    'woocommerce_coming_soon' => 'no',
    'woocommerce_store_pages_only' => 'no',
    'woocommerce_onboarding_profile' => ['skipped' => true, 'completed' => true],
    'woocommerce_task_list_hidden' => 'yes',
    'woocommerce_show_marketplace_suggestions' => 'no',
    'woocommerce_allow_tracking' => 'no',
    'woocommerce_custom_orders_table_enabled' => 'yes',
    'woocommerce_custom_orders_table_data_sync_enabled' => 'no',
    'woocommerce_enable_guest_checkout' => 'yes',
    'woocommerce_enable_checkout_login_reminder' => 'no',
    'woocommerce_calc_taxes' => 'no',
    'woocommerce_ship_to_countries' => 'disabled',
] as $name => $value) {
    update_option($name, $value);
}
// HPOS' tables (made by the installer); the order datastore follows the option above.
if (class_exists(\Automattic\WooCommerce\Internal\DataStores\Orders\DataSynchronizer::class)) {
    wc_get_container()->get(\Automattic\WooCommerce\Internal\DataStores\Orders\DataSynchronizer::class)->create_database_tables();
}

$products = [];
foreach ([['Panier de mangues', '5000'], ['Sac de riz', '12000']] as [$name, $price]) {
    $p = new WC_Product_Simple();
    $p->set_name($name);
    $p->set_regular_price($price);
    $p->set_status('publish');
    $p->set_catalog_visibility('visible');
    $products[] = $p->save();
}

// The classic cart and checkout (shortcodes); WooCommerce's own pages keep the blocks.
$classicCart = wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Classic cart', 'post_name' => 'classic-cart', 'post_content' => '[woocommerce_cart]']);
$classicCheckout = wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Classic checkout', 'post_name' => 'classic-checkout', 'post_content' => '[woocommerce_checkout]']);
$blockCheckout = (int) get_option('woocommerce_checkout_page_id');
update_option('woocommerce_cart_page_id', $classicCart);
update_option('woocommerce_checkout_page_id', $classicCheckout);

$activated = activate_plugin('caisse-woocommerce/caisse-woocommerce.php');
if (is_wp_error($activated)) {
    fwrite(STDERR, $activated->get_error_message());
    exit(1);
}
update_option('woocommerce_caisse_settings', json_decode($gateway, true) + ['enabled' => 'yes', 'testmode' => 'yes', 'title' => 'Mobile money']);
// Other gateways off: the checkout offers Caisse only.
foreach (['bacs', 'cheque', 'cod'] as $id) {
    update_option("woocommerce_{$id}_settings", ['enabled' => 'no']);
}
flush_rewrite_rules(true);

echo json_encode([
    'products' => $products,
    'blockCheckout' => get_permalink($blockCheckout),
    'classicCheckout' => get_permalink($classicCheckout),
]), "\n";
