<?php

// Removing the plugin removes its settings (keys and webhook secrets); orders keep their notes.
if (!defined('WP_UNINSTALL_PLUGIN')) {
    exit;
}
delete_option('woocommerce_caisse_settings');
