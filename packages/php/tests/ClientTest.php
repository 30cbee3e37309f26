<?php

declare(strict_types=1);

namespace Caisse\Tests;

use Caisse\Caisse;
use Caisse\CurlTransport;
use Caisse\Exception\AuthenticationException;
use Caisse\Exception\ConflictException;
use Caisse\Exception\InvalidRequestException;
use Caisse\Transport;
use Caisse\TransportFailure;
use Caisse\Webhook;
use PHPUnit\Framework\TestCase;

/** Every operation of the client against the real server the run started. */
final class ClientTest extends TestCase
{
    private Caisse $caisse;

    protected function setUp(): void
    {
        $this->caisse = Support::client();
    }

    public function testCreatesRetrievesListsAndCancelsIntents(): void
    {
        $order = 'order-' . bin2hex(random_bytes(4));
        $created = $this->caisse->intents->create([
            'amount' => '5000',
            'currency' => 'XAF',
            'description' => 'Commande ' . $order,
            'metadata' => ['orderId' => $order],
            'returnUrl' => 'http://127.0.0.1:8080/order-received/42',
        ]);
        $this->assertSame('PENDING', $created['status']);
        $this->assertStringStartsWith('ps_', $created['sessionToken']);
        $this->assertSame(201, $this->caisse->lastResponse()->status);

        $read = $this->caisse->intents->retrieve($created['id']);
        $this->assertSame(['5000', 'XAF', $order], [$read['amount'], $read['currency'], $read['metadata']['orderId']]);
        $this->assertArrayNotHasKey('sessionToken', $read);

        $list = $this->caisse->intents->list(['limit' => 5, 'status' => 'PENDING']);
        $this->assertContains($created['id'], array_column($list['data'], 'id'));

        $canceled = $this->caisse->intents->cancel($created['id']);
        $this->assertSame('CANCELED', $canceled['status']);
        try {
            $this->caisse->intents->cancel($created['id']);
            $this->fail('canceled twice');
        } catch (ConflictException $e) {
            $this->assertSame(['intent_state_invalid', 409], [$e->code, $e->status]);
            $this->assertNotNull($e->requestId);
        }
    }

    public function testThrowsTheProblemsCodeStatusAndParam(): void
    {
        try {
            $this->caisse->intents->create(['amount' => '50.5', 'currency' => 'XAF']);
            $this->fail('accepted 50.5 XAF');
        } catch (InvalidRequestException $e) {
            $this->assertSame(['amount_invalid', 400, 'amount'], [$e->code, $e->status, $e->param]);
            $this->assertNotSame('', $e->getMessage());
            $this->assertNotNull($e->idempotencyKey);
        }
        try {
            $this->caisse->intents->retrieve('pi_doesnotexist');
            $this->fail('found pi_doesnotexist');
        } catch (InvalidRequestException $e) {
            $this->assertSame(['not_found', 404], [$e->code, $e->status]);
        }
        $wrong = Support::client(['secretKey' => 'sk_test_' . str_repeat('x', 32)]);
        try {
            $wrong->balance->retrieve();
            $this->fail('a wrong secret key was accepted');
        } catch (AuthenticationException $e) {
            $this->assertSame(401, $e->status);
            $this->assertSame('secret_key_invalid', $e->code);
        }
    }

    public function testARetryAfterALostAnswerIsReplayedNotMadeTwice(): void
    {
        // The first attempt reaches the server, which creates the intent; its answer is lost.
        $lossy = new class () implements Transport {
            public int $calls = 0;

            public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): array
            {
                $answer = (new CurlTransport())->send($method, $url, $headers, $body, $timeoutSeconds);
                if (++$this->calls === 1) {
                    throw new TransportFailure('the answer was lost', true);
                }
                return $answer;
            }
        };
        $slept = [];
        $caisse = Support::client(['transport' => $lossy, 'sleep' => function (int $ms) use (&$slept): void {
            $slept[] = $ms;
        }]);
        $order = 'order-' . bin2hex(random_bytes(4));
        $intent = $caisse->intents->create(['amount' => '2500', 'currency' => 'XAF', 'metadata' => ['orderId' => $order]]);
        $meta = $caisse->lastResponse();
        $this->assertSame(2, $meta->attempts);
        $this->assertTrue($meta->idempotentReplayed);
        $this->assertCount(1, $slept);
        $same = array_filter($this->caisse->intents->list(['limit' => 100])['data'], static fn ($i) => ($i['metadata']['orderId'] ?? null) === $order);
        $this->assertSame([$intent['id']], array_values(array_column($same, 'id')));

        // The caller's own key, sent again later: the same intent.
        $key = 'order-' . $order;
        $first = $this->caisse->intents->create(['amount' => '100', 'currency' => 'XAF'], ['idempotencyKey' => $key]);
        $again = $this->caisse->intents->create(['amount' => '100', 'currency' => 'XAF'], ['idempotencyKey' => $key]);
        $this->assertSame($first['id'], $again['id']);
        $this->assertTrue($this->caisse->lastResponse()->idempotentReplayed);
        $this->assertSame($key, $this->caisse->lastResponse()->idempotencyKey);
    }

    public function testRefundsAPaymentToThePayersPhone(): void
    {
        $paid = Support::paidIntent($this->caisse, '3000');
        $refund = $this->caisse->refunds->create($paid['id'], ['amount' => '1000', 'reason' => 'one item back']);
        $this->assertSame('1000', $refund['amount']);
        $this->assertContains($refund['status'], ['PENDING', 'SUCCEEDED']);
        $after = Support::until(fn () => $this->caisse->intents->retrieve($paid['id']), fn ($i) => $i['status'] === 'PARTIALLY_REFUNDED');
        $this->assertSame('1000', $after['amountRefunded']);
        $this->caisse->intents->refund($paid['id']);
        Support::until(fn () => $this->caisse->intents->retrieve($paid['id']), fn ($i) => $i['status'] === 'REFUNDED');
        try {
            $this->caisse->refunds->create($paid['id']);
            $this->fail('refunded past the amount');
        } catch (ConflictException $e) {
            $this->assertSame('intent_state_invalid', $e->code);
        }
    }

    public function testReadsTheBalanceEventsAndPaysOut(): void
    {
        $paid = Support::paidIntent($this->caisse, '20000');
        $events = $this->caisse->events->list(['type' => 'payment.completed', 'limit' => 50]);
        $mine = array_values(array_filter($events['data'], static fn ($e) => $e['data']['paymentIntent']['id'] === $paid['id']));
        $this->assertCount(1, $mine);
        $this->assertSame($mine[0]['id'], $this->caisse->events->retrieve($mine[0]['id'])['id']);

        $this->caisse->testHelpers->settleBalance();
        $balance = $this->caisse->balance->retrieve();
        $xaf = array_values(array_filter($balance['available'], static fn ($b) => $b['currency'] === 'XAF'));
        $this->assertGreaterThan(1000, (int) $xaf[0]['amount']);
        $statement = $this->caisse->balance->listTransactions(['currency' => 'XAF', 'limit' => 5]);
        $this->assertNotEmpty($statement['data']);

        $payout = $this->caisse->payouts->create(['amount' => '1000', 'currency' => 'XAF', 'destination' => ['provider' => 'mtn_momo', 'phoneNumber' => '+237670000001']]);
        $this->assertSame(202, $this->caisse->lastResponse()->status);
        $this->assertSame('PENDING', $payout['status']);
        $this->assertContains($payout['id'], array_column($this->caisse->payouts->list()['data'], 'id'));
        Support::until(fn () => $this->caisse->payouts->retrieve($payout['id']), fn ($p) => $p['status'] === 'PAID');
        $this->assertArrayHasKey('interval', $this->caisse->payouts->retrieveSchedule());
    }

    public function testManagesEndpointsAndVerifiesWhatTheServerSends(): void
    {
        $dir = sys_get_temp_dir() . '/caisse-php-hooks-' . bin2hex(random_bytes(4));
        mkdir($dir);
        $port = self::freePort();
        $receiver = proc_open(
            ['php', '-S', '127.0.0.1:' . $port, __DIR__ . '/fixtures/receiver.php'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            null,
            ['RECEIVER_DIR' => $dir, 'PATH' => getenv('PATH')],
        );
        try {
            $endpoint = $this->caisse->webhookEndpoints->create(['url' => "http://127.0.0.1:$port/hook", 'enabledEvents' => ['payment.completed'], 'description' => 'PHP tests']);
            $this->assertStringStartsWith('whsec_', $endpoint['secret']);
            $this->assertSame("http://127.0.0.1:$port/hook", $this->caisse->webhookEndpoints->retrieve($endpoint['id'])['url']);
            $this->assertContains($endpoint['id'], array_column($this->caisse->webhookEndpoints->list()['data'], 'id'));
            $this->assertSame('PHP tests, renamed', $this->caisse->webhookEndpoints->update($endpoint['id'], ['description' => 'PHP tests, renamed'])['description']);
            $this->assertSame($endpoint['secret'], $this->caisse->webhookEndpoints->retrieveSecret($endpoint['id'])['secret']);

            $paid = Support::paidIntent($this->caisse, '1500');
            $delivery = Support::until(function () use ($dir, $paid) {
                foreach (glob($dir . '/*.json') as $file) {
                    $d = json_decode((string) file_get_contents($file), true);
                    if (str_contains((string) base64_decode($d['body']), $paid['id'])) {
                        return $d;
                    }
                }
                return null;
            }, static fn ($d) => $d !== null);
            $event = Webhook::constructEvent(base64_decode($delivery['body']), $delivery['signature'], $endpoint['secret']);
            $this->assertSame('payment.completed', $event['type']);
            $this->assertSame($paid['id'], $event['data']['paymentIntent']['id']);
            $this->assertNotEmpty($this->caisse->webhookEndpoints->listDeliveries($endpoint['id'])['data']);

            $rolled = $this->caisse->webhookEndpoints->rollSecret($endpoint['id']);
            $this->assertNotSame($endpoint['secret'], $rolled['secret']);
            $this->assertTrue($this->caisse->webhookEndpoints->delete($endpoint['id'])['deleted']);
        } finally {
            proc_terminate($receiver);
            proc_close($receiver);
            array_map('unlink', glob($dir . '/*'));
            rmdir($dir);
        }
    }

    private static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        $name = stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr($name, strrpos($name, ':') + 1);
    }
}
