<?php

// Prints an order as the test checks it (JSON): php order.php <site dir> <order id>
[$_, $site, $id] = $argv;
$_SERVER['HTTP_HOST'] = 'localhost';
require $site . '/wp-load.php';
$order = wc_get_order((int) $id);
if (!$order) {
    echo json_encode(null), "\n";
    exit;
}
echo json_encode([
    'status' => $order->get_status(),
    'paid' => $order->is_paid(),
    'transactionId' => $order->get_transaction_id(),
    'intentId' => $order->get_meta('_caisse_intent_id'),
    'total' => $order->get_total(),
    'refunded' => $order->get_total_refunded(),
    'notes' => array_map(static fn ($n) => $n->content, wc_get_order_notes(['order_id' => $order->get_id()])),
    'hpos' => \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled(),
]), "\n";
