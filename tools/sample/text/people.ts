/**
 * Reviewer names: first and last names as varied as a Triangle-area customer base, Hispanic names
 * for Spanish-language reviewers, and the handles people pick on DealerRater.
 */
export const FIRST_NAMES = [
  'James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Nancy', 'Daniel', 'Lisa',
  'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily',
  'Andrew', 'Donna', 'Joshua', 'Michelle', 'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Melissa', 'George', 'Deborah',
  'Timothy', 'Stephanie', 'Ronald', 'Rebecca', 'Jason', 'Sharon', 'Jeffrey', 'Laura', 'Ryan', 'Cynthia', 'Jacob', 'Amy',
  'Gary', 'Kathleen', 'Nicholas', 'Angela', 'Eric', 'Shirley', 'Jonathan', 'Brenda', 'Stephen', 'Pamela', 'Larry', 'Nicole',
  'Justin', 'Anna', 'Scott', 'Samantha', 'Brandon', 'Katherine', 'Benjamin', 'Christine', 'Samuel', 'Debra', 'Gregory', 'Rachel',
  'Alexander', 'Carolyn', 'Patrick', 'Janet', 'Frank', 'Maria', 'Raymond', 'Olivia', 'Jack', 'Heather', 'Dennis', 'Helen',
  'Jerry', 'Catherine', 'Tyler', 'Diane', 'Aaron', 'Julie', 'Jose', 'Victoria', 'Adam', 'Joyce', 'Nathan', 'Lauren',
  'Henry', 'Kelly', 'Zachary', 'Christina', 'Douglas', 'Ruth', 'Peter', 'Joan', 'Kyle', 'Virginia', 'Noah', 'Judith',
  'Ethan', 'Evelyn', 'Jeremy', 'Hannah', 'Walter', 'Andrea', 'Christian', 'Megan', 'Keith', 'Cheryl', 'Roger', 'Jacqueline',
  'Terry', 'Madison', 'Austin', 'Teresa', 'Sean', 'Abigail', 'Gerald', 'Sophia', 'Carl', 'Martha', 'Harold', 'Sara',
  'Dylan', 'Gloria', 'Arthur', 'Janice', 'Lawrence', 'Kathryn', 'Jordan', 'Ann', 'Jesse', 'Isabella', 'Bryan', 'Judy',
  'Billy', 'Charlotte', 'Bruce', 'Julia', 'Gabriel', 'Grace', 'Logan', 'Amber', 'Alan', 'Alice', 'Juan', 'Denise',
  'Wayne', 'Danielle', 'Roy', 'Marilyn', 'Ralph', 'Beverly', 'Randy', 'Natalie', 'Eugene', 'Theresa', 'Vincent', 'Diana',
  'Bobby', 'Brittany', 'Russell', 'Doris', 'Louis', 'Kayla', 'Philip', 'Alexis', 'Johnny', 'Lori', 'Tremaine', 'Latoya',
  'DeShawn', 'Keisha', 'Marquis', 'Tiffany', 'Darnell', 'Ebony', 'Jamal', 'Shanice', 'Terrence', 'Aaliyah', 'Priya', 'Raj',
  'Anil', 'Deepa', 'Wei', 'Mei', 'Hoang', 'Linh', 'Min-jun', 'Ji-woo', 'Tariq', 'Fatima', 'Omar', 'Aisha', 'Bo', 'Cletus',
  'Dale', 'Wanda', 'Earl', 'Bonnie', 'Hunter', 'Mackenzie', 'Colby', 'Savannah', 'Tanner', 'Brooke', 'Trey', 'Haley',
];

/** Last names, with the local (eastern North Carolina) ones among them. */
export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas', 'Moore',
  'Jackson', 'Martin', 'Lee', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen',
  'King', 'Wright', 'Scott', 'Hill', 'Green', 'Adams', 'Baker', 'Nelson', 'Carter', 'Mitchell', 'Roberts', 'Turner',
  'Phillips', 'Campbell', 'Parker', 'Evans', 'Edwards', 'Collins', 'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers', 'Morgan',
  'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Wood',
  'James', 'Bennett', 'Gray', 'Hughes', 'Price', 'Sanders', 'Myers', 'Long', 'Ross', 'Foster', 'Powell', 'Jenkins',
  'Perry', 'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler', 'Henderson', 'Barnes', 'Fisher', 'Vasquez', 'Simmons', 'Graham',
  'Jordan', 'Reynolds', 'Hamilton', 'Ford', 'Wallace', 'Gibson', 'Bryant', 'Hayes', 'Owens', 'Harrison', 'McDonald', 'Ellis',
  'Stephens', 'Marshall', 'Murray', 'Tucker', 'Webb', 'Holt', 'Pope', 'Blackwell', 'Hester', 'Strickland', 'Lassiter', 'Honeycutt',
  'Pender', 'Godwin', 'Barefoot', 'Tart', 'Creech', 'Batten', 'Stancil', 'Massengill', 'Patel', 'Shah', 'Nguyen', 'Tran',
  'Pham', 'Kim', 'Park', 'Chen', 'Wang', 'Li', 'Khan', 'Ali', 'Hassan', 'Okafor', 'Mensah', 'Boateng', 'Washington', 'Freeman',
  'McNeill', 'McLean', 'Faircloth', 'Wooten', 'Oxendine', 'Locklear', 'Chavis', 'Jacobs', 'Lowery', 'Dial',
];

/** First names of Spanish-speaking and Hispanic reviewers. */
export const HISPANIC_FIRST = [
  'José', 'María', 'Juan', 'Guadalupe', 'Luis', 'Ana', 'Carlos', 'Rosa', 'Jorge', 'Verónica', 'Miguel', 'Gabriela',
  'Francisco', 'Alejandra', 'Jesús', 'Leticia', 'Ricardo', 'Yesenia', 'Fernando', 'Maribel', 'Eduardo', 'Claudia', 'Javier', 'Adriana',
  'Óscar', 'Lucía', 'Raúl', 'Brenda', 'Sergio', 'Marisol', 'Arturo', 'Elena', 'Ramón', 'Daniela', 'Héctor', 'Patricia',
  'Víctor', 'Karla', 'Édgar', 'Araceli', 'Omar', 'Blanca', 'Rigoberto', 'Norma', 'Efraín', 'Sonia', 'Wilmer', 'Xiomara',
];

/** Last names of Spanish-speaking and Hispanic reviewers. */
export const HISPANIC_LAST = [
  'García', 'Martínez', 'Rodríguez', 'Hernández', 'López', 'González', 'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Rivera',
  'Gómez', 'Díaz', 'Cruz', 'Morales', 'Reyes', 'Gutiérrez', 'Ortiz', 'Chávez', 'Ramos', 'Ruiz', 'Mendoza', 'Castillo',
  'Jiménez', 'Vargas', 'Romero', 'Herrera', 'Medina', 'Aguilar', 'Castro', 'Vásquez', 'Salazar', 'Guzmán', 'Rojas', 'Contreras',
  'Lara', 'Domínguez', 'Cabrera', 'Barrera', 'Zelaya', 'Mejía', 'Portillo', 'Argueta', 'Campos', 'Cisneros', 'Fuentes', 'Ochoa',
];

/** DealerRater handles: people pick these instead of their names. */
export const HANDLES = [
  'happycustomer', 'truckguy', 'chevyfan', 'sierraowner', 'momof3', 'ncdriver', 'tarheel', 'wolfpackfan', 'duramax', 'z71',
  'blessed', 'firsttimebuyer', 'roadtripper', 'bigmike', 'jdub', 'mrsmith', 'gmcowner', 'tahoelife', 'nursejen', 'coachk',
];
