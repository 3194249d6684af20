/**
 * The narrative beats of long reviews, in the order people tell them: drop-off, waiting,
 * the call, the pick-up; or the online search, the test drive, the numbers, finance, delivery.
 * Each beat is a list of alternatives; the composer tells the beats in order, skipping some.
 */
export const STORIES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'service.neg': [
    [
      'I dropped $car off on $dow at $appt for $svc{ and was told it would be ready by the end of the day|, they said a couple hours|}',
      'I had an appointment at $appt on $dow for $svc',
      'I brought $car in on $dow morning for $svc, which {should be|is supposed to be} a quick job',
    ],
    [
      'by $outtime I had not heard anything, so I called',
      'at lunchtime I called for an update and was put on hold for {20|25|30} minutes',
      '@nobody called me all day',
      'the {online|} status {said|showed} "in progress" all day{, which meant nothing|}',
    ],
    [
      'when I finally got ahold of $adv, $adv:he said {they had not even started on it|the tech had gone home|they were waiting on a part}',
      'they told me it also needed $upsell and that it would be another $days',
      'when I finally got a call back they said {they had not even started on it|the tech had gone home|they were waiting on a part}',
      '{$adv|the advisor} said it would be ready {the next morning|tomorrow by noon}, which it was not',
    ],
    [
      'I asked for the service manager and was told he {was not in|would call me}',
      'I drove up there {on my lunch break|after work} and my $vehicle was sitting in the same spot in the lot',
      'I ended up {taking an Uber home|getting a ride from my {neighbor|coworker}|missing half a day of work}',
    ],
    [
      'when I picked it up the bill was $bill, not the $quote I was quoted',
      'I got it back {three|four} days later {and the problem was still there|with a new scratch on the door}',
      'they finally {finished|called} {two|three} days after they promised',
      'when I picked it up {@nobody|no one} could explain what they actually did',
    ],
    [
      'I brought it back {the next week|two days later|the following Monday} because {the same noise was back|the light came back on|it was doing the exact same thing}, and this time they {kept it|had it} for $days and {still could not find anything|said it was "normal"}',
      'less than a week later it was {doing the same thing|back to making the same noise}, so back it went, and the second time {$adv|the advisor} {acted like I was making it up|was even less helpful}',
      'when it started doing the same thing {a week later|two days later} they wanted to charge me {again|a second time} just to look at it, which I refused to pay',
    ],
    [
      'I have {spent {over $2,000|almost $3,000|thousands} with|put {over $2,000|thousands} into} this dealership over the years and this is how they treat {loyal customers|a customer}',
      'I {work full time|have two kids} and {cannot keep taking days off|do not have time for this}',
      'I {emailed|called} the general manager {twice|three times} and {never got a response|was told someone would call me}',
    ],
  ],
  'service.pos': [
    [
      'I dropped $car off at $appt{ for $svc|}',
      'I called {first thing in the morning|on $dow} and they {got me in that afternoon|fit me in the same day}',
      'I booked $svc for $dow morning{ and showed up a little early|}',
    ],
    [
      'within {an hour|two hours} {$adv|my advisor} {called|texted} with what they found and {a price|an estimate}',
      '{$adv|they} texted me a video from the tech showing {the worn parts|what was wrong}',
      '{$adv|my advisor} checked me in {right away|in about five minutes} and {got me a coffee|pointed me to the lounge}',
    ],
    [
      '{$adv:he|they} {went over|explained} {the options|what was urgent and what was not} {without any pressure|in plain English}',
      'the price was {exactly|right at} what they quoted',
      '{$tech|the tech} even {took the time to|came out to} show me {the old parts|what they replaced}',
    ],
    [
      'it was ready {by $outtime|before lunch|that afternoon}{, washed and vacuumed|}',
      'when I picked it up {$adv|they} walked me through the invoice line by line',
      'I was back on the road {before noon|in time to pick up my kids}',
    ],
    [
      "I have been bringing {my cars|our family's vehicles} here for {years|a long time} and {it has always been|they have always been} {consistent|the same great experience}",
      'this was my first time here after {moving to the area|my old dealer closed} and {I am sold|I found my new service department}',
    ],
    [
      'special thanks to $tech{ in the shop|} and $adv{ at the desk|}',
      'also want to thank $driver for the ride{ and the good conversation|}',
      '{a couple days later|the next week} $adv {called|texted} to make sure everything was running right',
    ],
  ],
  'sales.pos': [
    [
      'we started {online|by email} with $sales {on $dow|a week before}{ and had the numbers worked out before we came in|}',
      '{I|we} came in on $dow {just to look|to test drive a $model}{ and $sales met us at the door|}',
      '{I|we} had been shopping for {a couple months|weeks} and {visited three other dealers|were tired of the games} before {we came here|Stonebridge}',
    ],
    [
      '$sales {let us|had us} test drive {two|three} different trims {without any pressure|and was patient the whole time}',
      'we test drove {the $model|it} {on the highway|on I-40} and {fell in love|knew right away}',
      '$sales {knew the $model inside and out|answered every question we threw at $sales:him}',
    ],
    [
      'the numbers were exactly what $sales had sent {me|us}{ by text|}',
      'they gave me {a fair|a good} number for $trade{ without any back and forth|}',
      'no {games|back and forth} with the price',
    ],
    [
      '$fin in finance {had us out in 30 minutes|got us a better rate than our bank|explained every form}',
      'finance was quick and {@nobody|no one} pushed extras on us',
    ],
    [
      'when we picked it up it was {cleaned|detailed} with a full tank{ and a bow on it|}',
      '$sales {set up my phone|went over all the features} before we drove off',
    ],
    [
      'a week later $sales {called|texted} to check in{ and help me with the app|}',
      '{we|I} {stopped by|came back} {a few days later|the next week} with a question and $sales {dropped what $sales:he was doing|helped us right away}',
    ],
    [
      'this is our {second|third} {vehicle|car} from $sales and {it will not be the last|we will be back}',
      'I {dreaded|hate} car shopping and this was {the first time|honestly the first time} it did not feel like a battle',
    ],
  ],
  'sales.neg': [
    [
      'I {found|saw} the $model online and {called|emailed} to confirm it was {available|on the lot} and the price',
      'we drove {an hour|45 minutes|up from $city} to see $newcar {after confirming it was there|that they said was available}',
    ],
    [
      'when we got there {the price was different|there was $3,000 in add-ons on it|it was suddenly "at another location"}',
      '$sales went back and forth to the manager {four|five} times',
      'they ran my credit {before we even agreed on a price|without asking}',
    ],
    [
      '{finance|the finance guy} {spent an hour|kept} pushing {an extended warranty|gap insurance|a paint protection package}',
      'we were there {five|six} hours{ and my kids were miserable|}',
    ],
    [
      'after we signed, {@nobody|no one} {returned my calls|would answer} about {the second key|my plates|the scratch they promised to fix}',
      '{two|three} weeks later {my temp tag|the temp tag} {was about to expire|expired} and {still no plates|nobody knew where my title was}',
    ],
    [
      'I {called|emailed} {the general manager|$mgr} {twice|three times} and {never got a response|was told someone would call me}',
      'when I {brought it back|came back} about {the scratch|the missing floor mats|the second key}, $sales {acted like $sales:he had never seen me|said that was not $sales:his problem}',
    ],
    [
      'I have bought {two|three} {cars|vehicles} here {before|over the years} and {this will be the last|never again}',
      '{I|we} {work hard for our money|saved for two years for this} and {this is how we were treated|we deserved better}',
    ],
  ],
};
